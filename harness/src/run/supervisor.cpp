// supervise() (supervisor.h): one case in a child process, with timeout, record file and stderr tail, classified.
#include "run/supervisor.h"

#include "base/output_pattern.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "run/interrupt.h"
#include "values/npy.h"
#include "base/json_reader.h"

namespace harness {

RunRecord classify(const RunRecord &identity, const ChildCommand &cmd);

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// In the child, after fork: own process group, output to a file, exec. Never returns.
// `parent` is the forking process: the child is killed when it dies (PR_SET_PDEATHSIG), which covers an
// interrupt that lands between fork() and track_child() (interrupt.h), when `run` does not know the pid yet.
[[noreturn]] void exec_child(const std::string &output_path, char *const *argv, pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // `run` already died before the line above
    setpgid(0, 0);
    const int fd = open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    execv(argv[0], argv);
    const char msg[] = "supervisor: exec failed\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    _exit(127);
}

}  // namespace

std::string text_tail(std::string s, size_t max_bytes) {
    if (s.size() > max_bytes) {
        s = s.substr(s.size() - max_bytes);
        const size_t nl = s.find('\n');
        if (nl != std::string::npos && nl + 1 < s.size()) s = s.substr(nl + 1);
    }
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string file_tail(const std::string &path, size_t max_bytes) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return "";
    std::stringstream ss;
    ss << f.rdbuf();
    return text_tail(ss.str(), max_bytes);
}

ChildProcess::ChildProcess(const std::vector<std::string> &argv, const std::string &output_path) {
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    start_ms_ = now_ms();
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ < 0) {
        error_ = std::string("fork failed: ") + std::strerror(errno);
        return;
    }
    if (pid_ == 0) exec_child(output_path, args.data(), parent);
    setpgid(pid_, pid_);  // also in the parent, so the group exists before any kill
    track_child(pid_);    // killed with its group if `run` is interrupted (interrupt.h)
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0 && !reaped_) {
        kill(-pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
        untrack_child(pid_);
    }
}

bool ChildProcess::wait(const std::function<bool()> &should_kill) {
    bool killed = false;
    for (;;) {
        const pid_t w = waitpid(pid_, &status_, WNOHANG);
        if (w == pid_) break;
        if (w < 0 && errno != EINTR) break;
        if (should_kill && should_kill()) {
            killed = true;
            kill(-pid_, SIGKILL);
            waitpid(pid_, &status_, 0);
            break;
        }
        const timespec ts{0, 2 * 1000 * 1000};
        nanosleep(&ts, nullptr);
    }
    kill(-pid_, SIGKILL);  // leftovers of the group (helpers a driver forked), if any
    untrack_child(pid_);
    reaped_ = true;
    elapsed_ms_ = now_ms() - start_ms_;
    return killed;
}

double ChildProcess::elapsed_ms() const {
    return reaped_ ? elapsed_ms_ : now_ms() - start_ms_;
}

namespace {

// The first line of the file matching `pattern`, or "".
std::string first_matching_line(const std::string &path, const std::string &pattern) {
    std::ifstream f(path);
    const OutputPattern re(pattern);
    std::string line;
    while (std::getline(f, line)) {
        if (re.search(line)) return line;
    }
    return "";
}

}  // namespace

RunRecord supervise(const RunRecord &identity, const ChildCommand &cmd) {
    RunRecord r = classify(identity, cmd);
    if (cmd.fail_on_output.empty() || r.outcome == Outcome::Skip || r.outcome == Outcome::Timeout) return r;
    const std::string line = first_matching_line(cmd.stderr_path, cmd.fail_on_output);
    if (line.empty()) return r;
    const std::string matched = "output matched /" + cmd.fail_on_output + "/: " + line;
    if (r.outcome == Outcome::Pass || r.outcome == Outcome::TeardownFault) {
        if (r.result_outcome.empty()) r.result_outcome = outcome_name(r.outcome);
        r.outcome = Outcome::Fail;
        r.message = matched;
    } else {
        r.message += "; " + matched;  // already failing: the tool's report says why
    }
    return r;
}

RunRecord classify(const RunRecord &identity, const ChildCommand &cmd) {
    unlink(cmd.record_path.c_str());
    RunRecord r = identity;
    ChildProcess child_process(cmd.argv, cmd.stderr_path);
    if (!child_process.started()) {
        r.outcome = Outcome::Error;
        r.message = child_process.error();
        return r;
    }
    const double deadline = cmd.timeout_s * 1000.0;
    const bool timed_out = child_process.wait([&] { return child_process.elapsed_ms() > deadline; });
    const int status = child_process.status();
    const double elapsed = child_process.elapsed_ms();

    bool have_record = false;
    RunRecord child;
    try {
        child = RunRecord::from_json(parse_json(read_file(cmd.record_path), cmd.record_path, ""));
        have_record = true;
    } catch (const std::exception &) {
        have_record = false;
    }
    if (have_record) r = child;
    r.stderr_tail = file_tail(cmd.stderr_path);
    r.duration_ms = elapsed;

    if (timed_out) {
        r.outcome = Outcome::Timeout;
        r.message = "killed after the " + std::to_string(static_cast<int>(cmd.timeout_s)) + " s time limit" +
                    (have_record ? " (a result had been recorded: " + child.message + ")" : "");
        if (have_record) r.result_outcome = outcome_name(child.outcome);
        return r;
    }
    if (WIFSIGNALED(status)) {
        const std::string sig = strsignal(WTERMSIG(status));
        if (have_record) {
            r.outcome = Outcome::TeardownFault;
            r.result_outcome = outcome_name(child.outcome);
            r.message =
                "result recorded (" + r.result_outcome + ": " + child.message + "), then died during exit: " + sig;
        } else {
            r.outcome = Outcome::Crash;
            r.message = "died before producing a result: " + sig;
        }
        return r;
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (!have_record) {
        r.outcome = Outcome::Error;
        r.message = "child exited with code " + std::to_string(code) + " without writing a result";
        return r;
    }
    if (code != outcome_exit_code(child.outcome)) {
        r.outcome = Outcome::TeardownFault;
        r.result_outcome = outcome_name(child.outcome);
        r.message = "result recorded (" + r.result_outcome + ": " + child.message + "), then exited with code " +
                    std::to_string(code) + " during teardown";
    }
    return r;
}

}  // namespace harness
