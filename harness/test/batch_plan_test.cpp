// Unit tests of the run matrix's grouping and start order (matrix/batch_plan.h): whole units per child,
// longest units first, tasks that run alone, the chunk target.
#include "matrix/batch_plan.h"

#include <gtest/gtest.h>

namespace harness {
namespace {

PlanTask task(const std::string &unit, double cost, bool alone = false, const std::string &group = "gpu",
              double setup = 0) {
    PlanTask t;
    t.group = group;
    t.unit = unit;
    t.cost = cost;
    t.alone = alone;
    t.setup = setup;
    return t;
}

std::deque<size_t> as_deque(const std::vector<size_t> &v) {
    return std::deque<size_t>(v.begin(), v.end());
}

TEST(BatchPlan, UnitsStartLongestFirstWithTheirTasksTogether) {
    // Task order interleaves two units; b's tasks cost more in all, so b starts first, each unit whole.
    const std::vector<PlanTask> tasks{task("a", 1), task("b", 5), task("a", 1), task("b", 5), task("a", 1)};
    EXPECT_EQ(plan_start_order(tasks), (std::vector<size_t>{1, 3, 0, 2, 4}));
}

TEST(BatchPlan, TiesKeepTaskOrderAndSetupCountsOncePerUnit) {
    // c: 3 tasks of 1 = 3; d: one task of 1 + setup 2.5 = 3.5 (the setup once, not per task).
    const std::vector<PlanTask> tasks{task("c", 1), task("c", 1), task("c", 1), task("d", 1, false, "gpu", 2.5),
                                      task("e", 3)};
    EXPECT_EQ(plan_start_order(tasks), (std::vector<size_t>{3, 0, 1, 2, 4}));
}

TEST(BatchPlan, AloneTasksAreUnitsOfTheirOwn) {
    // The alone task of unit a is ordered by its own cost, apart from a's other tasks.
    const std::vector<PlanTask> tasks{task("a", 1), task("a", 9, true), task("a", 1), task("b", 4)};
    const std::vector<size_t> order = plan_start_order(tasks);
    EXPECT_EQ(order, (std::vector<size_t>{1, 3, 0, 2}));
    EXPECT_EQ(plan_chunk(tasks, as_deque(order), 16, 16), 1u);  // the alone task
    EXPECT_EQ(plan_chunk(tasks, as_deque({3, 0, 2}), 16, 16), 3u);
    EXPECT_EQ(plan_chunk(tasks, as_deque({0, 2, 1, 3}), 16, 16), 2u);  // stops before the alone task
}

PlanTask lead(const std::string &unit, double cost, const std::string &group = "gpu") {
    PlanTask t = task(unit, cost, false, group);
    t.lead = true;
    return t;
}

TEST(BatchPlan, EachLeadingTaskGoesBeforeAUnitOfItsGroup) {
    // Units a (cost 6) and b (cost 2) in group gpu, c (cost 4) in group cpu; leaders x (cost 3) and y (1)
    // in gpu, z in cpu: the most expensive leader before gpu's first unit, the next before its second.
    const std::vector<PlanTask> tasks{task("a", 3),       task("a", 3), task("b", 2),
                                      lead("x", 3),       lead("y", 1), task("c", 4, false, "cpu"),
                                      lead("z", 1, "cpu")};
    EXPECT_EQ(plan_start_order(tasks), (std::vector<size_t>{3, 0, 1, 6, 5, 4, 2}));
}

TEST(BatchPlan, LeadingTasksLeftOverComeLast) {
    // Three leaders, one unit: one leads it, the other two have nothing to lead.
    const std::vector<PlanTask> tasks{lead("x", 5), task("a", 1), lead("y", 4), lead("z", 3)};
    EXPECT_EQ(plan_start_order(tasks), (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(BatchPlan, ALeadingTaskStartsAChunkOfWholeUnits) {
    // pending: x (lead), a a a, y (lead), b b
    const std::vector<PlanTask> tasks{lead("x", 1), task("a", 1), task("a", 1), task("a", 1),
                                      lead("y", 1), task("b", 1), task("b", 1)};
    const std::deque<size_t> pending = as_deque({0, 1, 2, 3, 4, 5, 6});
    EXPECT_EQ(plan_chunk(tasks, pending, 1, 16), 4u);   // the leader does not count: x + unit a
    EXPECT_EQ(plan_chunk(tasks, pending, 16, 16), 4u);  // never a second leader: y leads its own chunk
    EXPECT_EQ(plan_chunk(tasks, as_deque({4, 5, 6}), 16, 16), 3u);
    EXPECT_EQ(plan_chunk(tasks, as_deque({1, 2, 3, 4, 5, 6}), 16, 16), 3u);  // a leader mid-queue ends it
    EXPECT_EQ(plan_chunk(tasks, as_deque({0}), 16, 16), 1u);                 // nothing to lead: alone
    EXPECT_EQ(plan_chunk(tasks, pending, 16, 2), 2u);                        // --batch 2: x + a
}

TEST(BatchPlan, AChunkHoldsWholeUnits) {
    // Units of 3, 2 and 4 tasks in start order.
    const std::vector<PlanTask> tasks{task("a", 1), task("a", 1), task("a", 1), task("b", 1), task("b", 1),
                                      task("c", 1), task("c", 1), task("c", 1), task("c", 1)};
    const std::deque<size_t> pending = as_deque({0, 1, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_EQ(plan_chunk(tasks, pending, 1, 16), 3u);   // at least one whole unit, over the target
    EXPECT_EQ(plan_chunk(tasks, pending, 4, 16), 3u);   // a + b would be 5 > 4
    EXPECT_EQ(plan_chunk(tasks, pending, 5, 16), 5u);   // a + b
    EXPECT_EQ(plan_chunk(tasks, pending, 8, 16), 5u);   // + c would be 9 > 8
    EXPECT_EQ(plan_chunk(tasks, pending, 16, 16), 9u);  // everything
    EXPECT_EQ(plan_chunk(tasks, pending, 16, 7), 5u);   // --batch 7: a + b, not c
    EXPECT_EQ(plan_chunk(tasks, pending, 16, 2), 2u);   // --batch 2 cuts unit a
    EXPECT_EQ(plan_chunk(tasks, pending, 16, 1), 1u);   // --batch 1
    EXPECT_EQ(plan_chunk(tasks, {}, 16, 16), 0u);
}

TEST(BatchPlan, UnitsOfOtherGroupsAreNotJoined) {
    // The same unit name in another group (another device) is another unit.
    const std::vector<PlanTask> tasks{task("a", 1, false, "opencl"), task("a", 1, false, "vulkan")};
    EXPECT_EQ(plan_chunk(tasks, as_deque({0, 1}), 1, 16), 1u);
    EXPECT_EQ(plan_start_order(tasks).size(), 2u);
}

TEST(BatchPlan, TargetKeepsEveryCpuSlotBusy) {
    EXPECT_EQ(plan_target(98, 8, 16, false), 7u);  // ceil(98 / 16)
    EXPECT_EQ(plan_target(5, 8, 16, false), 1u);
    EXPECT_EQ(plan_target(1000, 8, 16, false), 16u);  // at most --batch
    EXPECT_EQ(plan_target(40, 1, 16, false), 16u);    // one slot: nothing to balance
    EXPECT_EQ(plan_target(3, 1, 16, false), 3u);
    EXPECT_EQ(plan_target(0, 4, 16, false), 1u);
}

TEST(BatchPlan, DeviceChildrenAreFilledToTheBatchSize) {
    // A GPU child's driver context and kernel builds cost more than most of its cases: as few children as
    // --batch allows, whatever the slots.
    EXPECT_EQ(plan_target(49, 2, 16, true), 16u);
    EXPECT_EQ(plan_target(98, 8, 16, true), 16u);
    EXPECT_EQ(plan_target(49, 2, 4, true), 4u);
    EXPECT_EQ(plan_target(3, 2, 16, true), 16u);  // plan_chunk takes what is pending
}

}  // namespace
}  // namespace harness
