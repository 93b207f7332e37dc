"""harnesslib.testing: the test fixtures (fixtures) and the tests over the whole repository: imports, repository
references, the bad-input corpus and the run CLI at scale."""
