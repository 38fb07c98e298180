// Assignment: every item to exactly K labelers of the roster, an order of their own for each, enforced by the
// server; the admin page behind its token shows progress, speed, agreement and controls.
#include "labeling/assignment.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/error.h"
#include "labeling/label_server.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;

datasets::CandidateManifest ManifestOfClasses(int classes, int per_class) {
  datasets::CandidateManifest manifest;
  for (int c = 0; c < classes; ++c) {
    const std::string wnid = "n0" + std::to_string(1000000 + c);
    manifest.classes[wnid] = {c, wnid, {"class " + std::to_string(c)}, ""};
    for (int r = 1; r <= per_class; ++r) {
      datasets::Candidate item;
      item.id = wnid + "/" + std::to_string(r);
      item.wnid = wnid;
      item.class_index = c;
      item.rank = r;
      manifest.items.push_back(item);
    }
  }
  return manifest;
}

TEST(AssignmentTest, EveryItemGoesToExactlyOverlapLabelersInOrdersOfTheirOwn) {
  const auto manifest = ManifestOfClasses(6, 10);
  const AssignmentPlan plan{{"ana", "ben", "cat", "dan", "eve"}, 3, true};
  std::map<std::size_t, int> seen;
  std::map<std::string, std::vector<std::size_t>> orders;
  for (const std::string& name : plan.roster) {
    orders[name] = AssignedItems(manifest, plan, name);
    EXPECT_EQ(orders[name].size(), 36u) << name;  // 60 items x 3 / 5 labelers
    for (std::size_t index : orders[name]) ++seen[index];
    // One class at a time: each class's items are contiguous in the labeler's order.
    std::set<std::string> finished;
    for (std::size_t k = 0; k < orders[name].size(); ++k) {
      const std::string& wnid = manifest.items[orders[name][k]].wnid;
      if (k > 0 && manifest.items[orders[name][k - 1]].wnid != wnid) {
        EXPECT_FALSE(finished.count(wnid)) << name << " comes back to " << wnid;
        finished.insert(manifest.items[orders[name][k - 1]].wnid);
      }
    }
    EXPECT_EQ(AssignedItems(manifest, plan, name), orders[name]) << "the same order on every reload";
  }
  ASSERT_EQ(seen.size(), 60u);
  for (const auto& [index, count] : seen) EXPECT_EQ(count, 3) << manifest.items[index].id;
  EXPECT_NE(orders["ana"], orders["ben"]);
  EXPECT_THROW(CheckAssignmentPlan({{"ana"}, 2, true}), Error);
  EXPECT_THROW(CheckAssignmentPlan({{"ana", "ana"}, 1, true}), Error);
  EXPECT_THROW(CheckAssignmentPlan({{}, 2, true}), Error);
  // No plan: everyone gets everything, class by class, best rank first.
  const auto all = AssignedItems(manifest, AssignmentPlan{}, "anyone");
  ASSERT_EQ(all.size(), 60u);
  EXPECT_EQ(manifest.items[all[0]].id, manifest.items[0].id);
}

TEST(AssignmentTest, ServerServesAndAcceptsOnlyAssignedItemsAndShowsProgressToTheOrganizer) {
  TempDir dir;
  const auto folder = testing::MakeCandidateFolder(dir / "candidates");
  LabelStore store(dir / "candidates" / "labels.sqlite");
  ServerOptions options = testing::RunningServer::DefaultOptions();
  options.assignment = {{"alice", "bob", "carol"}, 2, true};
  options.admin_token = "admin-token-0123456789";
  testing::RunningServer server(folder, store, options);
  httplib::Client client("127.0.0.1", server.port());
  const json queue = json::parse(client.Get("/api/queue?labeler=bob")->body);
  std::set<std::string> bobs;
  for (const json& item : queue["items"]) bobs.insert(item["id"].get<std::string>());
  EXPECT_EQ(bobs.size(), AssignedItems(folder.manifest, options.assignment, "bob").size());
  EXPECT_LT(bobs.size(), folder.manifest.items.size());
  std::string not_bobs;
  for (const auto& item : folder.manifest.items) {
    if (!bobs.count(item.id)) not_bobs = item.id;
  }
  const httplib::Headers headers = {{"X-CSRF-Token", server.server().page_token()}};
  auto refused =
      client.Post("/api/label", headers, json{{"labeler", "bob"}, {"item", not_bobs}, {"label", "correct"}}.dump(),
                  "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_EQ(client.Get("/api/queue?labeler=mallory")->status, 403);
  auto saved =
      client.Post("/api/label", headers,
                  json{{"labeler", "bob"}, {"item", *bobs.begin()}, {"label", "correct"}, {"seconds", 2.5}}.dump(),
                  "application/json");
  ASSERT_TRUE(saved);
  EXPECT_EQ(saved->status, 200) << saved->body;

  EXPECT_EQ(client.Get("/admin")->status, 403);
  EXPECT_EQ(client.Get("/admin?admin=wrong")->status, 403);
  auto admin = client.Get("/admin?admin=admin-token-0123456789");
  ASSERT_TRUE(admin);
  ASSERT_EQ(admin->status, 200);
  EXPECT_NE(admin->body.find("<td>bob</td><td>1</td><td>" + std::to_string(bobs.size()) + "</td><td>2.5</td>"),
            std::string::npos)
      << admin->body;
  EXPECT_NE(admin->body.find("<td>carol</td><td>0</td>"), std::string::npos);
  EXPECT_EQ(admin->body.find("<script"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::labeling
