// main() for a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on every file named
// on the command line or found (non-recursively) in a named directory. Used by the default build's
// `fuzz/<target>/corpus` tests; an input that breaks an invariant aborts the process.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

bool is_dir(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_DIR...  (runs each input once through the fuzz target)\n", argv[0]);
        return 2;
    }
    std::vector<std::string> files;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (!is_dir(arg)) {
            files.push_back(arg);
            continue;
        }
        DIR *d = opendir(arg.c_str());
        if (!d) {
            std::fprintf(stderr, "replay: cannot open %s; check the path\n", arg.c_str());
            return 2;
        }
        std::vector<std::string> found;
        while (dirent *e = readdir(d)) {
            const std::string path = arg + "/" + e->d_name;
            if (e->d_name[0] != '.' && !is_dir(path)) found.push_back(path);
        }
        closedir(d);
        if (found.empty()) {
            std::fprintf(stderr, "replay: %s has no inputs; add seed files to it\n", arg.c_str());
            return 2;
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "replay: cannot read %s; check the path\n", f.c_str());
            return 2;
        }
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::fprintf(stderr, "replay: %s (%zu bytes)\n", f.c_str(), bytes.size());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs without a finding\n", files.size());
    return 0;
}
