// Temporary directories of the harness: made under $TMPDIR (default /tmp) and removed, with whatever
// is in them, on every way out: the destructor (a normal return, an exception), and SIGINT/SIGTERM,
// whose handler (interrupt.h) kills the running children and then calls remove_temp_dirs_for_signal().
#pragma once
#include <string>

namespace harness {

// $TMPDIR when set and not empty, else /tmp.
std::string temp_root();

class TempDir {
public:
    // Makes <temp_root()>/<prefix>.XXXXXX; throws Error naming the directory and the fix.
    explicit TempDir(const std::string &prefix);
    ~TempDir();  // removes it and everything below it
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }
    void remove();  // now rather than at destruction (idempotent)

private:
    std::string path_;
    int slot_ = -1;  // its entry in the list the signal handler removes
};

// Async-signal-safe: removes every TempDir that exists (plain syscalls, no allocation). Waits briefly
// for files that children killed a moment ago may still be finishing.
void remove_temp_dirs_for_signal();

}  // namespace harness
