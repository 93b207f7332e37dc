// supervise_batch: one child running several cases, watched case by case (batch_supervisor.h).
#include "run/batch_supervisor.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "base/files.h"
#include "run/child_protocol.h"
#include "run/supervisor.h"
#include "base/json_reader.h"

namespace harness {

namespace {

bool exists(const std::string &path) {
    return access(path.c_str(), F_OK) == 0;
}

}  // namespace

BatchEnd supervise_batch(const BatchCommand &cmd) {
    BatchEnd end;
    for (size_t i = 0; i < cmd.cases; i++) {
        unlink(batch_start_file(cmd.record_prefix, i).c_str());
        unlink(batch_record_file(cmd.record_prefix, i).c_str());
    }
    ChildProcess child(cmd.argv, cmd.output_path);
    if (!child.started()) {
        end.detail = child.error();
        return end;
    }
    // Seen so far: start markers and records, each with the time it was first seen (ms since the fork).
    std::vector<double> started_at, done_at;
    const double limit_ms = cmd.timeout_s * 1000.0;
    const auto poll = [&] {
        const double now = child.elapsed_ms();
        while (started_at.size() < cmd.cases && exists(batch_start_file(cmd.record_prefix, started_at.size())))
            started_at.push_back(now);
        while (done_at.size() < started_at.size() && exists(batch_record_file(cmd.record_prefix, done_at.size())))
            done_at.push_back(now);
        // The running case's clock: from its start marker, or from the fork (start-up) or the last record
        // (exit) when no case is running.
        const double since = started_at.size() > done_at.size() ? started_at.back() :
                             done_at.empty()                    ? 0.0 :
                                                                  done_at.back();
        return now - since > limit_ms;
    };
    const bool killed = child.wait(poll);
    poll();  // what was written between the last look and the exit
    const int status = child.status();
    const double exit_ms = child.elapsed_ms();

    // The records, each with its own part of the output (from its start marker's offset to the next's).
    std::string output;
    read_file_if_exists(cmd.output_path, &output);
    std::vector<size_t> offsets;
    for (size_t i = 0; i < started_at.size(); i++) {
        std::string text;
        read_file_if_exists(batch_start_file(cmd.record_prefix, i), &text);
        size_t off = 0;
        try {
            off = std::min<size_t>(std::stoull(text), output.size());
        } catch (const std::exception &) {
            off = offsets.empty() ? 0 : offsets.back();
        }
        offsets.push_back(off);
    }
    const auto part = [&](size_t i) {
        const size_t from = i < offsets.size() ? offsets[i] : output.size();
        const size_t to = i + 1 < offsets.size() ? std::max(offsets[i + 1], from) : output.size();
        return text_tail(output.substr(from, to - from));
    };
    for (size_t i = 0; i < done_at.size(); i++) {
        RunRecord r;
        try {
            const std::string file = batch_record_file(cmd.record_prefix, i);
            r = RunRecord::from_json(parse_json(read_file(file), file, ""));
        } catch (const std::exception &) {
            break;  // unreadable: as if the case had not finished
        }
        r.stderr_tail = part(i);
        r.duration_ms = done_at[i] - (i == 0 ? 0.0 : started_at[i]);
        end.records.push_back(r);
    }
    const size_t k = end.records.size();
    end.at = k;
    end.output_tail = part(k);
    end.elapsed_ms = exit_ms - (k < started_at.size() ? started_at[k] : (k == 0 ? 0.0 : done_at[k - 1]));
    const bool clean = !killed && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (killed) {
        end.detail = "killed after the " + std::to_string(static_cast<int>(cmd.timeout_s)) + " s time limit";
    } else if (WIFSIGNALED(status)) {
        end.detail = strsignal(WTERMSIG(status));
    } else {
        end.detail = "exit code " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    if (k == cmd.cases) {
        end.kind = clean ? BatchEnd::Finished : BatchEnd::DiedAtExit;
    } else if (started_at.size() > k) {  // case k started and left no record
        end.kind = killed ? BatchEnd::TimedOut : BatchEnd::Crashed;
        if (clean) end.detail = "exited (code 0) in the middle of case " + std::to_string(k);
    } else if (k == 0) {
        end.kind = BatchEnd::NoStart;
    } else if (clean && end.records.back().outcome != Outcome::Pass) {
        end.kind = BatchEnd::Stopped;
    } else {
        // Between record k-1 and the start of case k: a crash, hang or exit while case k-1 was torn
        // down. The cases so far are re-run alone (run_batch), as after a death at exit.
        end.kind = BatchEnd::DiedAtExit;
    }
    return end;
}

}  // namespace harness
