"""harnesslib.dashboard: the dashboard over the history, its record pages and pictures (imaging), and the browser
tests of it and of the HTML report."""
