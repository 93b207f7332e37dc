// Temporary directories under $TMPDIR, removed with their contents on every way out (temp_dir.h).
#include "base/temp_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include <gtest/gtest.h>

#include "base/error.h"
#include "base/files.h"

namespace harness {
namespace {

// Sets TMPDIR for the test's lifetime, then puts the old value back.
struct TmpdirIs {
    std::string old;
    bool had;
    explicit TmpdirIs(const std::string &v) : had(std::getenv("TMPDIR") != nullptr) {
        if (had) old = std::getenv("TMPDIR");
        setenv("TMPDIR", v.c_str(), 1);
    }
    ~TmpdirIs() { had ? setenv("TMPDIR", old.c_str(), 1) : unsetenv("TMPDIR"); }
};

std::string scratch() {
    char tmpl[] = "/tmp/temp_dir_test.XXXXXX";
    return mkdtemp(tmpl);
}

TEST(TempDir, LivesUnderTmpdirAndGoesWithEverythingInIt) {
    const std::string root = scratch();
    {
        const TmpdirIs env(root);
        EXPECT_EQ(temp_root(), root);
        std::string path;
        {
            TempDir t("aot-harness");
            path = t.path();
            EXPECT_EQ(path.rfind(root + "/aot-harness.", 0), 0u) << path;
            write_file_atomic(path + "/record-0.json", "{}");
            write_file_atomic(path + "/record-0.json.tmp.123", "{");  // a child killed mid-write
            ASSERT_EQ(make_dirs(path + "/a/b"), 0);
            write_file_atomic(path + "/a/b/c", "x");
        }
        EXPECT_FALSE(is_dir(path));
    }
    EXPECT_EQ(rmdir(root.c_str()), 0);  // nothing left in TMPDIR
}

TEST(TempDir, TheSignalPathRemovesLiveDirs) {
    TempDir t("aot-harness");
    write_file_atomic(t.path() + "/stderr-1.txt", "x");
    remove_temp_dirs_for_signal();
    EXPECT_FALSE(is_dir(t.path()));
}

TEST(TempDir, EmptyTmpdirMeansTmpAndAMissingOneIsOneLine) {
    {
        const TmpdirIs env("");
        EXPECT_EQ(temp_root(), "/tmp");
    }
    const TmpdirIs env("/nonexistent/dir");
    try {
        TempDir t("aot-harness");
        ADD_FAILURE() << "made " << t.path();
    } catch (const Error &e) {
        EXPECT_EQ(std::string(e.what()), "cannot create a temporary directory in /nonexistent/dir: No such file or "
                                         "directory; set TMPDIR to a writable directory with free space");
    }
}

}  // namespace
}  // namespace harness
