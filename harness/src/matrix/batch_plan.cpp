// The grouping and start order of the run matrix's children (batch_plan.h).
#include "matrix/batch_plan.h"

#include <algorithm>
#include <deque>
#include <map>

namespace harness {

std::vector<size_t> plan_start_order(const std::vector<PlanTask> &tasks) {
    struct Unit {
        double cost = 0;
        std::vector<size_t> members;
    };
    std::vector<Unit> units;
    std::map<std::pair<std::string, std::string>, size_t> index;  // (group, unit) -> units[]
    for (size_t i = 0; i < tasks.size(); i++) {
        const PlanTask &t = tasks[i];
        size_t u = units.size();
        if (!t.alone && !t.lead) {
            const auto [it, added] = index.emplace(std::make_pair(t.group, t.unit), units.size());
            u = it->second;
            if (!added) {
                units[u].cost += t.cost;
                units[u].members.push_back(i);
                continue;
            }
        }
        units.push_back({t.setup + t.cost, {i}});
    }
    std::stable_sort(units.begin(), units.end(), [](const Unit &a, const Unit &b) { return a.cost > b.cost; });
    std::map<std::string, std::deque<size_t>> leads;  // group -> its leading tasks, most expensive first
    for (const auto &u : units) {
        if (tasks[u.members[0]].lead) leads[tasks[u.members[0]].group].push_back(u.members[0]);
    }
    std::vector<size_t> order;
    for (const auto &u : units) {
        const PlanTask &t = tasks[u.members[0]];
        if (t.lead) continue;
        std::deque<size_t> &mine = leads[t.group];
        if (!t.alone && !mine.empty()) {
            order.push_back(mine.front());
            mine.pop_front();
        }
        order.insert(order.end(), u.members.begin(), u.members.end());
    }
    for (const auto &u : units) {  // leading tasks left over: no unit of their group to lead
        const size_t i = u.members[0];
        if (tasks[i].lead && std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
    }
    return order;
}

size_t plan_chunk(const std::vector<PlanTask> &tasks, const std::deque<size_t> &pending, size_t target,
                  size_t max_batch) {
    if (pending.empty()) return 0;
    max_batch = std::max<size_t>(1, max_batch);
    if (tasks.at(pending[0]).alone || max_batch == 1) return 1;
    const size_t lead = tasks.at(pending[0]).lead ? 1 : 0;  // it does not count towards the target
    size_t count = lead;
    while (count < pending.size()) {
        const PlanTask &head = tasks.at(pending[count]);
        if (head.alone || head.lead) break;
        size_t end = count + 1;  // the unit's tasks: consecutive in the start order
        while (end < pending.size() && !tasks.at(pending[end]).alone && !tasks.at(pending[end]).lead &&
               tasks.at(pending[end]).unit == head.unit && tasks.at(pending[end]).group == head.group)
            end++;
        if (count > lead && (end - lead > target || end > max_batch)) break;  // the next unit would overshoot
        count = end;
        if (count - lead >= target) break;
    }
    return std::min(count, max_batch);
}

size_t plan_target(size_t pending, size_t limit, size_t max_batch, bool device_setup) {
    max_batch = std::max<size_t>(1, max_batch);
    if (device_setup) return max_batch;
    if (limit <= 1) return std::clamp<size_t>(pending, 1, max_batch);
    return std::clamp<size_t>((pending + 2 * limit - 1) / (2 * limit), 1, max_batch);
}

}  // namespace harness
