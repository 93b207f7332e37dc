// File helpers shared by goldens, results and reports.
#pragma once
#include <string>
#include <vector>

namespace harness {

// Reads the whole file. Throws Error naming the path and the fix.
std::string read_file(const std::string &path);
// Reads the whole file into `bytes`; false if it does not exist. Throws Error for other failures.
bool read_file_if_exists(const std::string &path, std::string *bytes);
// Writes through a temporary file in the same directory, fsync, rename, fsync of the directory:
// readers see the old content or the new, never a partial file. Throws Error naming the path.
void write_file_atomic(const std::string &path, const std::string &bytes);
// mkdir -p; returns 0 or the errno of the first failure (ENOTDIR when a component is not a directory).
int make_dirs(const std::string &path);
// True if `path` is a directory (following symlinks).
bool is_dir(const std::string &path);
// The files below `root`, as paths relative to it (unsorted; none if `root` cannot be read). Top-level
// entries whose names start with `skip_top_prefix` (when it is not empty) are left out.
std::vector<std::string> list_files_below(const std::string &root, const std::string &skip_top_prefix = "");
// This executable's path (/proc/self/exe), or "" if it cannot be resolved.
std::string self_exe_path();

}  // namespace harness
