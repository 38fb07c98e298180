// The labeling server over loopback with a real cpp-httplib client: every endpoint, and every refusal (unknown
// items, labels outside the set, oversized bodies, bad labeler names, missing page token, wrong origin, wrong
// method, access tokens, path traversal in all its spellings, symlinks out of the folder).
#include "labeling/label_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "common/error.h"
#include "labeling/safe_path.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::ReadFile;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;
using nlohmann::json;
using testing::CandidateFolder;
using testing::RunningServer;

class LabelServerTest : public ::testing::Test {
 protected:
  LabelServerTest()
      : folder_(testing::MakeCandidateFolder(dir_ / "candidates")), store_(dir_ / "candidates" / "labels.sqlite") {
    testing::MakeExamplesFolder(dir_ / "examples", 2);
    // Something outside the candidate folder a traversal would like to read, and a manifest item that is a
    // symlink pointing at it.
    WriteFile(dir_ / "secret.jpg", "not for you");
    fs::create_symlink(dir_ / "secret.jpg", folder_.dir / "images" / "link.jpg");
    fs::create_symlink(dir_ / "secret.jpg", dir_ / "examples" / "n01440764" / "zz_link.jpg");
    WriteFile(folder_.dir / "images" / "unlisted.jpg", "an image file that is not a candidate");
    datasets::Candidate linked = folder_.manifest.items.front();
    linked.id = "n01440764/link";
    linked.path = "images/link.jpg";
    linked.rank = 9;
    folder_.manifest.items.push_back(linked);
  }

  ServerOptions Options() {
    ServerOptions options = RunningServer::DefaultOptions();
    options.examples_dir = dir_ / "examples";
    return options;
  }

  static httplib::Client Client(const RunningServer& server) {
    httplib::Client client("127.0.0.1", server.port());
    client.set_url_encode(false);  // send the paths exactly as written
    client.set_keep_alive(false);
    return client;
  }

  static httplib::Headers PostHeaders(const RunningServer& server) {
    return {{"X-CSRF-Token", server.server().page_token()}};
  }

  static httplib::Result PostJson(const RunningServer& server, const std::string& path, const json& body) {
    httplib::Client client = Client(server);
    return client.Post(path.c_str(), PostHeaders(server), body.dump(), "application/json");
  }

  TempDir dir_;
  CandidateFolder folder_;
  LabelStore store_;
};

void ExpectRefused(const httplib::Result& result, int code, const std::string& reason_part) {
  ASSERT_TRUE(result) << "no response";
  EXPECT_EQ(result->status, code) << result->body;
  const json body = json::parse(result->body, nullptr, false);
  ASSERT_TRUE(body.is_object() && body.contains("error")) << "a refusal carries a JSON reason: " << result->body;
  EXPECT_NE(body["error"].get<std::string>().find(reason_part), std::string::npos) << "reason: " << result->body;
}

#define EXPECT_REFUSED(result, code, reason_part) \
  do {                                            \
    SCOPED_TRACE(#result);                        \
    ExpectRefused(result, code, reason_part);     \
  } while (0)

TEST_F(LabelServerTest, ServesTheSelfContainedPageWithItsTokenAndAStrictPolicy) {
  RunningServer server(folder_, store_, Options());
  auto client = Client(server);
  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find(server.server().page_token()), std::string::npos);
  EXPECT_EQ(page->body.find("__PAGE_TOKEN__"), std::string::npos);
  EXPECT_EQ(page->body.find("__NONCE__"), std::string::npos);
  const std::string policy = page->get_header_value("Content-Security-Policy");
  EXPECT_NE(policy.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(policy.find("script-src 'nonce-"), std::string::npos);
  EXPECT_EQ(page->get_header_value("X-Content-Type-Options"), "nosniff");
  // Nothing from the network: no absolute URLs to fetch scripts, styles, fonts or images from.
  for (const char* external : {"http://", "https://", "src=\"//", "@import", "url("}) {
    EXPECT_EQ(page->body.find(external), std::string::npos) << external;
  }
  auto icon = client.Get("/favicon.ico");
  ASSERT_TRUE(icon);
  EXPECT_EQ(icon->status, 204);
}

TEST_F(LabelServerTest, QueueComesClassByClassByRankAndHidesControls) {
  RunningServer server(folder_, store_, Options());
  auto client = Client(server);
  auto result = client.Get("/api/queue?labeler=alice");
  ASSERT_TRUE(result);
  ASSERT_EQ(result->status, 200) << result->body;
  const json queue = json::parse(result->body);
  EXPECT_EQ(queue["labeler"], "alice");
  EXPECT_TRUE(queue["examples"].get<bool>());
  ASSERT_EQ(queue["items"].size(), folder_.manifest.items.size());
  int last_class = -1;
  int last_rank = 0;
  for (const json& item : queue["items"]) {
    const int class_index = item["class_index"];
    const int rank = item["rank"];
    ASSERT_GE(class_index, last_class);
    if (class_index == last_class) EXPECT_GT(rank, last_rank);
    last_class = class_index;
    last_rank = rank;
    EXPECT_FALSE(item.contains("control")) << "controls must stay hidden";
    EXPECT_TRUE(item["label"].is_null());
    EXPECT_EQ(item["image"].get<std::string>().rfind("/images/", 0), 0u);
  }
  EXPECT_EQ(queue["items"][0]["id"], "n01440764/photo1");
  EXPECT_EQ(result->body.find("incorrect"), std::string::npos) << "the control's answer must not leak";
  ASSERT_EQ(queue["classes"].size(), 3u);
  bool found_gloss = false;
  for (const json& c : queue["classes"]) {
    if (c["wnid"] == "n01440764") {
      EXPECT_EQ(c["name"], "tench");
      EXPECT_EQ(c["synonyms"][1], "Tinca tinca");
      found_gloss = c["gloss"].get<std::string>().find("game fish") != std::string::npos;
    }
  }
  EXPECT_TRUE(found_gloss);
  // The server's --labeler is the default.
  auto fallback = client.Get("/api/queue");
  ASSERT_TRUE(fallback);
  EXPECT_EQ(json::parse(fallback->body)["labeler"], "alice");
}

TEST_F(LabelServerTest, LabelAndUndoAreStoredPerLabelerAndAReturningLabelerResumes) {
  RunningServer server(folder_, store_, Options());
  auto labeled = PostJson(server, "/api/label",
                          {{"labeler", "alice"}, {"item", "n01440764/photo1"}, {"label", "correct"}, {"seconds", 2.5}});
  ASSERT_TRUE(labeled);
  ASSERT_EQ(labeled->status, 200) << labeled->body;
  const json event = json::parse(labeled->body)["event"];
  EXPECT_EQ(event["label"], "correct");
  EXPECT_EQ(event["action"], "label");
  EXPECT_GT(event["seq"].get<int64_t>(), 0);
  ASSERT_EQ(
      PostJson(server, "/api/label", {{"labeler", "bob"}, {"item", "n01440764/photo2"}, {"label", "unsure"}})->status,
      200);

  auto client = Client(server);
  const json alice = json::parse(client.Get("/api/queue?labeler=alice")->body);
  const json bob = json::parse(client.Get("/api/queue?labeler=bob")->body);
  EXPECT_EQ(alice["items"][0]["label"], "correct");
  EXPECT_TRUE(alice["items"][1]["label"].is_null());
  EXPECT_TRUE(bob["items"][0]["label"].is_null()) << "each labeler sees only their own labels";
  EXPECT_EQ(bob["items"][1]["label"], "unsure");

  auto undone = PostJson(server, "/api/undo", {{"labeler", "alice"}});
  ASSERT_TRUE(undone);
  ASSERT_EQ(undone->status, 200) << undone->body;
  const json undo = json::parse(undone->body);
  EXPECT_EQ(undo["event"]["action"], "undo");
  EXPECT_EQ(undo["event"]["item"], "n01440764/photo1");
  EXPECT_EQ(undo["event"]["undoes"], event["seq"]);
  EXPECT_TRUE(undo["label_now"].is_null());
  EXPECT_REFUSED(PostJson(server, "/api/undo", {{"labeler", "alice"}}), 409, "nothing to undo");

  const auto events = store_.Events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_DOUBLE_EQ(events[0].seconds, 2.5);
  EXPECT_TRUE(events[2].is_undo);
  // Returning: a new server on the same store shows bob where he stopped.
  RunningServer again(folder_, store_, Options());
  const json bob_again = json::parse(Client(again).Get("/api/queue?labeler=bob")->body);
  EXPECT_EQ(bob_again["items"][1]["label"], "unsure");
}

// Issue 56 item 5: "ana" and "Ana" were two labelers voting on one item (both then flagged LIKELY SPAMMER); a roster
// "ana,Ana" was accepted. Names compare without case after NFKC, and the store keeps one spelling per labeler.
TEST_F(LabelServerTest, NamesThatDifferOnlyInCaseAreOneLabeler) {
  RunningServer server(folder_, store_, Options());
  ASSERT_EQ(
      PostJson(server, "/api/label", {{"labeler", "ana"}, {"item", "n01440764/photo1"}, {"label", "correct"}})->status,
      200);
  const auto second =
      PostJson(server, "/api/label", {{"labeler", "Ana"}, {"item", "n01440764/photo1"}, {"label", "incorrect"}});
  ASSERT_EQ(second->status, 200) << second->body;
  EXPECT_EQ(json::parse(second->body)["event"]["labeler"], "ana");
  const json queue = json::parse(Client(server).Get("/api/queue?labeler=ANA")->body);
  EXPECT_EQ(queue["labeler"], "ana");
  EXPECT_EQ(queue["items"][0]["label"], "incorrect");  // her own latest decision
  for (const LabelEvent& e : store_.Events()) EXPECT_EQ(e.labeler, "ana");
  EXPECT_EQ(CurrentDecisions(store_.Events()).size(), 1u);
  // Undo by another spelling retracts her decision.
  EXPECT_EQ(PostJson(server, "/api/undo", {{"labeler", "aNa"}})->status, 200);

  ServerOptions roster = Options();
  roster.assignment.roster = {"ana", "Ana", "ben"};
  try {
    RunningServer refused(folder_, store_, roster);
    FAIL() << "a roster naming one labeler twice was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'ana' and 'Ana' are one labeler"), std::string::npos) << e.what();
  }
  // On a roster, any spelling of a member is that member, under the roster's spelling.
  roster.assignment.roster = {"Ben", "ana"};
  RunningServer team(folder_, store_, roster);
  const json ben = json::parse(Client(team).Get("/api/queue?labeler=ben")->body);
  EXPECT_EQ(ben["labeler"], "Ben");
}

// A store written before the fix, holding votes of both spellings, counts them as one labeler.
TEST(LabelerKeyTest, OldStoresWithBothSpellingsCountOneLabeler) {
  std::vector<LabelEvent> events(3);
  events[0] = {1, "item", "ana", false, Label::kCorrect};
  events[1] = {2, "item", "Ana", false, Label::kIncorrect};
  events[2] = {3, "other", "ＡＮＡ", false, Label::kCorrect};  // full-width: NFKC then case folding
  const auto decisions = CurrentDecisions(events);
  ASSERT_EQ(decisions.size(), 2u);
  EXPECT_EQ(decisions.at({"item", "ana"}).label, Label::kIncorrect);
  EXPECT_EQ(decisions.at({"other", "ana"}).seq, 3);
  EXPECT_EQ(LabelerKey("Zoë Ng"), LabelerKey("ZOË NG"));
  EXPECT_NE(LabelerKey("ana"), LabelerKey("anna"));
}

TEST_F(LabelServerTest, SeveralLabelersAtOnceLoseNothing) {
  RunningServer server(folder_, store_, Options());
  std::vector<std::thread> labelers;
  for (const std::string name : {"p1", "p2", "p3"}) {
    labelers.emplace_back([&server, name] {
      for (int round = 0; round < 5; ++round) {
        for (const char* item : {"n01440764/photo1", "n02102040/photo2", "n03417042/photo3"}) {
          auto result = PostJson(server, "/api/label", {{"labeler", name}, {"item", item}, {"label", "correct"}});
          EXPECT_TRUE(result && result->status == 200);
        }
      }
    });
  }
  for (auto& t : labelers) t.join();
  EXPECT_EQ(store_.Events().size(), 45u);
}

TEST_F(LabelServerTest, RefusesInvalidDecisionsWithAReason) {
  RunningServer server(folder_, store_, Options());
  const std::string item = "n01440764/photo1";
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", "n99/none"}, {"label", "correct"}}),
                 400, "unknown item id");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", item}, {"label", "maybe"}}), 400,
                 "not one of correct, incorrect, unsure");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", item}, {"label", 1}}), 400,
                 "'label' must be");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", item}}), 400, "'label' must be");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "alice"}, {"label", "correct"}}), 400, "'item' must be");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "al\x07ice"}, {"item", item}, {"label", "correct"}}), 400,
                 "control character");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "line\nbreak"}, {"item", item}, {"label", "correct"}}),
                 400, "control character");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", "bidi\u202Eevil"}, {"item", item}, {"label", "correct"}}),
                 400, "control character");
  EXPECT_REFUSED(
      PostJson(server, "/api/label", {{"labeler", std::string(65, 'x')}, {"item", item}, {"label", "correct"}}), 400,
      "longer than");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"labeler", 7}, {"item", item}, {"label", "correct"}}), 400,
                 "'labeler' must be a string");
  EXPECT_REFUSED(
      PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", item}, {"label", "correct"}, {"seconds", -1}}),
      400, "'seconds'");
  EXPECT_REFUSED(
      PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", item}, {"label", "correct"}, {"seconds", "soon"}}),
      400, "'seconds'");
  EXPECT_REFUSED(
      PostJson(server, "/api/label", {{"labeler", "alice"}, {"item", item}, {"label", "correct"}, {"admin", true}}),
      400, "unknown field 'admin'");
  EXPECT_REFUSED(PostJson(server, "/api/undo", {{"labeler", "alice"}, {"item", "n99/none"}}), 400, "unknown item id");

  auto client = Client(server);
  auto not_json = client.Post("/api/label", PostHeaders(server), "label=correct", "application/json");
  EXPECT_REFUSED(not_json, 400, "JSON object");
  auto array = client.Post("/api/label", PostHeaders(server), "[1,2]", "application/json");
  EXPECT_REFUSED(array, 400, "JSON object");
  // Oversized: 64 KiB of padding in a well-formed body.
  const json big = {{"labeler", "alice"}, {"item", item}, {"label", "correct"}, {"pad", std::string(64 * 1024, 'x')}};
  auto oversized = client.Post("/api/label", PostHeaders(server), big.dump(), "application/json");
  EXPECT_REFUSED(oversized, 413, "too large");
  EXPECT_REFUSED(client.Get("/api/queue?labeler=tab%09name"), 400, "control character");
  EXPECT_REFUSED(client.Get("/api/queue?labeler=bad%ffutf8"), 400, "not valid UTF-8");
  EXPECT_REFUSED(client.Get("/api/examples?wnid=n00000000"), 404, "unknown class");
  EXPECT_REFUSED(client.Get("/api/nothing"), 404, "no such endpoint");
  EXPECT_TRUE(store_.Events().empty()) << "no refused request may leave a trace";
}

TEST_F(LabelServerTest, WithoutADefaultLabelerRequestsMustNameOne) {
  ServerOptions options = Options();
  options.default_labeler.clear();
  RunningServer server(folder_, store_, options);
  EXPECT_REFUSED(Client(server).Get("/api/queue"), 400, "no labeler");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"item", "n01440764/photo1"}, {"label", "correct"}}), 400,
                 "no labeler");
}

TEST_F(LabelServerTest, StateChangesArePostsWithThePageTokenFromTheSameOrigin) {
  RunningServer server(folder_, store_, Options());
  auto client = Client(server);
  const std::string body = json{{"item", "n01440764/photo1"}, {"label", "correct"}}.dump();
  EXPECT_REFUSED(client.Post("/api/label", body, "application/json"), 403, "page token");
  EXPECT_REFUSED(client.Post("/api/label", {{"X-CSRF-Token", "guess"}}, body, "application/json"), 403, "page token");
  EXPECT_REFUSED(client.Post("/api/undo", body, "application/json"), 403, "page token");
  // A form post from another site: wrong origin, and a content type a form can send.
  EXPECT_REFUSED(
      client.Post("/api/label", {{"X-CSRF-Token", server.server().page_token()}, {"Origin", "http://evil.example"}},
                  body, "application/json"),
      403, "cross-origin");
  EXPECT_REFUSED(client.Post("/api/label", PostHeaders(server), body, "text/plain"), 415, "application/json");
  EXPECT_REFUSED(client.Get("/api/label"), 405, "must be POSTs");
  EXPECT_REFUSED(client.Get("/api/undo"), 405, "must be POSTs");
  EXPECT_REFUSED(client.Put("/api/label", PostHeaders(server), body, "application/json"), 405, "GET and POST");
  EXPECT_REFUSED(client.Delete("/api/label"), 405, "GET and POST");
  // DNS rebinding: a foreign host name pointing at 127.0.0.1.
  EXPECT_REFUSED(client.Get("/", {{"Host", "evil.example:80"}}), 403, "Host");
  EXPECT_TRUE(store_.Events().empty());
  // The same request with the page's origin and token goes through.
  auto ok = client.Post(
      "/api/label",
      {{"X-CSRF-Token", server.server().page_token()}, {"Origin", "http://127.0.0.1:" + std::to_string(server.port())}},
      body, "application/json");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200) << ok->body;
}

TEST_F(LabelServerTest, AnAccessTokenGuardsEveryRequest) {
  ServerOptions options = Options();
  options.access_token = "0123456789abcdef-token";
  RunningServer server(folder_, store_, options);
  auto client = Client(server);
  EXPECT_REFUSED(client.Get("/"), 401, "access token");
  EXPECT_REFUSED(client.Get("/api/queue"), 401, "access token");
  EXPECT_REFUSED(client.Get("/images/images/n01440764_1.jpg"), 401, "access token");
  EXPECT_REFUSED(client.Get("/?token=wrong"), 403, "wrong access token");
  EXPECT_REFUSED(client.Get("/api/queue", {{"X-Evalsuite-Token", "0123456789abcdef-tokeX"}}), 403, "wrong");
  EXPECT_REFUSED(PostJson(server, "/api/label", {{"item", "n01440764/photo1"}, {"label", "correct"}}), 401,
                 "access token");
  auto with_query = client.Get("/?token=0123456789abcdef-token");
  ASSERT_TRUE(with_query);
  EXPECT_EQ(with_query->status, 200);
  EXPECT_NE(with_query->get_header_value("Set-Cookie").find("HttpOnly"), std::string::npos);
  EXPECT_EQ(client.Get("/api/queue", {{"Cookie", "evalsuite_token=0123456789abcdef-token"}})->status, 200);
  EXPECT_EQ(client.Get("/api/queue", {{"Authorization", "Bearer 0123456789abcdef-token"}})->status, 200);
  EXPECT_EQ(client.Get("/images/images/n01440764_1.jpg", {{"X-Evalsuite-Token", "0123456789abcdef-token"}})->status,
            200);
}

TEST_F(LabelServerTest, NonLoopbackAddressesNeedALongToken) {
  ServerOptions options = Options();
  options.bind = "0.0.0.0";
  EXPECT_THROW(LabelServer(folder_.manifest, folder_.dir, store_, options), Error);
  options.access_token = "short";
  EXPECT_THROW(LabelServer(folder_.manifest, folder_.dir, store_, options), Error);
  options.access_token = "0123456789abcdef";
  EXPECT_NO_THROW(LabelServer(folder_.manifest, folder_.dir, store_, options));  // constructed, never bound
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackAddress("::1"));
  EXPECT_FALSE(IsLoopbackAddress("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackAddress("192.168.1.10"));
}

TEST_F(LabelServerTest, ServesCandidateAndExampleImages) {
  RunningServer server(folder_, store_, Options());
  auto client = Client(server);
  auto image = client.Get("/images/images/n01440764_1.jpg");
  ASSERT_TRUE(image);
  ASSERT_EQ(image->status, 200);
  EXPECT_EQ(image->get_header_value("Content-Type"), "image/jpeg");
  EXPECT_EQ(image->body, ReadFile(folder_.dir / "images" / "n01440764_1.jpg"));

  auto examples = client.Get("/api/examples?wnid=n02102040");
  ASSERT_TRUE(examples);
  ASSERT_EQ(examples->status, 200) << examples->body;
  const json listed = json::parse(examples->body)["images"];
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0], "/examples/n02102040/example_1.jpg");
  auto example = client.Get(listed[0].get<std::string>().c_str());
  ASSERT_TRUE(example);
  EXPECT_EQ(example->status, 200);
  EXPECT_EQ(example->body, ReadFile(dir_ / "examples" / "n02102040" / "example_1.jpg"));
}

TEST_F(LabelServerTest, ImageRequestsCannotEscapeTheCandidateFolder) {
  RunningServer server(folder_, store_, Options());
  auto client = Client(server);
  const std::vector<std::string> escapes = {
      "/images/../secret.jpg",
      "/images/images/../../secret.jpg",
      "/images/%2e%2e/secret.jpg",
      "/images/%2E%2E/secret.jpg",
      "/images/images/%2e%2e%2f%2e%2e%2fsecret.jpg",
      "/images/images/..%2F..%2Fsecret.jpg",
      "/images/%2fetc%2fpasswd",
      "/images//etc/passwd",
      "/images/" + (dir_ / "secret.jpg").string(),
      "/images/images/./n01440764_1.jpg",
      "/images/images\\..\\..\\secret.jpg",
      "/images/images/link.jpg",  // listed in the manifest, but a symlink to a file outside the folder
      "/images/",
  };
  for (const std::string& path : escapes) {
    auto result = client.Get(path.c_str());
    ASSERT_TRUE(result) << path;
    EXPECT_TRUE(result->status == 403 || result->status == 400) << path << " -> " << result->status;
    EXPECT_EQ(result->body.find("not for you"), std::string::npos) << path;
  }
  // Inside the folder but not a candidate image: not served either.
  for (const std::string& path : {"/images/candidates.json", "/images/labels.sqlite", "/images/images/unlisted.jpg"}) {
    auto result = client.Get(path.c_str());
    ASSERT_TRUE(result) << path;
    EXPECT_TRUE(result->status == 404 || result->status == 403) << path << " -> " << result->status;
  }
  EXPECT_REFUSED(client.Get("/images/images/unlisted.jpg"), 404, "not a candidate image");
  // The examples folder has the same guard.
  client.Get("/api/examples?wnid=n01440764");
  for (const std::string& path : {"/examples/../secret.jpg", "/examples/%2e%2e/secret.jpg",
                                  "/examples/n01440764/zz_link.jpg", "/examples/n01440764/%2e%2e/%2e%2e/secret.jpg"}) {
    auto result = client.Get(path.c_str());
    ASSERT_TRUE(result) << path;
    EXPECT_TRUE(result->status == 403 || result->status == 404) << path << " -> " << result->status;
    EXPECT_EQ(result->body.find("not for you"), std::string::npos) << path;
  }
}

TEST(ResolveInsideTest, AcceptsOnlyPlainRelativePathsThatStayInside) {
  TempDir dir;
  WriteFile(dir / "root" / "a" / "b.jpg", "x");
  WriteFile(dir / "root2" / "c.jpg", "y");
  fs::create_symlink(dir / "root2" / "c.jpg", dir / "root" / "out.jpg");
  fs::create_symlink(dir / "root" / "a" / "b.jpg", dir / "root" / "in.jpg");
  const fs::path root = fs::canonical(dir / "root");
  EXPECT_TRUE(ResolveInside(root, "a/b.jpg"));
  EXPECT_TRUE(ResolveInside(root, "in.jpg")) << "a symlink that stays inside is fine";
  EXPECT_FALSE(ResolveInside(root, "out.jpg"));
  EXPECT_FALSE(ResolveInside(root, "../root2/c.jpg"));
  EXPECT_FALSE(ResolveInside(root, "a/../a/b.jpg"));
  EXPECT_FALSE(ResolveInside(root, "./a/b.jpg"));
  EXPECT_FALSE(ResolveInside(root, "a//b.jpg"));
  EXPECT_FALSE(ResolveInside(root, (dir / "root" / "a" / "b.jpg").string()));
  EXPECT_FALSE(ResolveInside(root, "a"));  // a folder, not a file
  EXPECT_FALSE(ResolveInside(root, "missing.jpg"));
  EXPECT_FALSE(ResolveInside(root, ""));
}

TEST(LabelerNameTest, RefusesControlCharactersAndBadUtf8) {
  EXPECT_FALSE(LabelerNameProblem("alice"));
  EXPECT_FALSE(LabelerNameProblem("Zoë Ng"));
  EXPECT_FALSE(LabelerNameProblem("标注员"));
  EXPECT_TRUE(LabelerNameProblem(""));
  EXPECT_TRUE(LabelerNameProblem("a\tb"));
  EXPECT_TRUE(LabelerNameProblem(std::string("a\0b", 3)));
  EXPECT_TRUE(LabelerNameProblem("a\x7f"));
  EXPECT_TRUE(LabelerNameProblem("a\xc2\x85"));      // U+0085, a C1 control
  EXPECT_TRUE(LabelerNameProblem("a\xe2\x80\xae"));  // U+202E right-to-left override
  EXPECT_TRUE(LabelerNameProblem("\xff"));
  EXPECT_TRUE(LabelerNameProblem("\xc0\xaf"));  // overlong '/'
  EXPECT_TRUE(LabelerNameProblem(" padded "));
  EXPECT_TRUE(LabelerNameProblem(std::string(65, 'a')));
}

}  // namespace
}  // namespace evalsuite::labeling
