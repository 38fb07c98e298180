// The labeling server against what a shared network and a team of browsers do to it, over real loopback
// sockets: DNS-rebinding Host names, 50 slowloris connections and idle keep-alives while a labeler works, a
// 100 MB chunked body, 1 MB of headers, Nagle's delay on a reused connection, look-alike labeler names, and
// spreadsheet formulas in CSV exports.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "labeling/csv_cell.h"
#include "labeling/label_server.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

using Clock = std::chrono::steady_clock;
using evalsuite::testing::TempDir;
using nlohmann::json;
using testing::CandidateFolder;
using testing::RunningServer;

// A raw TCP connection to the server: the tests need to send what no well-behaved client sends.
class RawConnection {
 public:
  explicit RawConnection(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    timeval timeout{2, 0};  // nothing here may hang the test
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  ~RawConnection() { ::close(fd_); }
  bool connected() const { return connected_; }
  // True when every byte was sent.
  bool Send(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  bool Readable(int millis) {
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, millis) > 0;
  }
  // Whatever arrives until the peer closes or 2 s of silence.
  std::string ReadAll() {
    std::string out;
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }

 private:
  int fd_;
  bool connected_ = false;
};

int StatusOf(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

// One request on a fresh connection that asks to be closed; returns the status (0: no response).
int RawStatus(int port, const std::string& request) {
  RawConnection connection(port);
  if (!connection.connected() || !connection.Send(request)) return 0;
  return StatusOf(connection.ReadAll());
}

std::string GetWithHost(const std::string& target, const std::string& host) {
  return "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
}

// Peak resident memory since the last ResetPeakMemory(), in bytes (VmHWM).
long PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6)) * 1024;
  }
  return -1;
}
bool ResetPeakMemory() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  return static_cast<bool>(clear.flush());
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

class LabelServerHardeningTest : public ::testing::Test {
 protected:
  LabelServerHardeningTest()
      : folder_(testing::MakeCandidateFolder(dir_ / "candidates")), store_(dir_ / "candidates" / "labels.sqlite") {}

  static std::string LabelRequest(const RunningServer& server, const std::string& body, const std::string& host) {
    return "POST /api/label HTTP/1.1\r\nHost: " + host +
           "\r\nContent-Type: application/json\r\nX-CSRF-Token: " + server.server().page_token() +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  }

  TempDir dir_;
  CandidateFolder folder_;
  LabelStore store_;
};

TEST_F(LabelServerHardeningTest, HostHeaderIsParsedAsAnAddressNotMatchedByPrefix) {
  ServerOptions options = RunningServer::DefaultOptions();
  options.allow_hosts = {"labels.lan"};
  RunningServer server(folder_, store_, options);
  const std::string port = std::to_string(server.port());
  const std::string queue = "/api/queue?labeler=alice";
  // DNS-rebinding names that merely start like a loopback address.
  for (const std::string& host :
       std::vector<std::string>{"127.evil.example", "127.0.0.1.nip.io", "127.evil.example:" + port,
                                "localhost.evil.example", "evil.example", "127.1", "", "127.0.0.1:80x"}) {
    EXPECT_EQ(RawStatus(server.port(), GetWithHost(queue, host)), 403) << "Host: " << host;
  }
  for (const std::string& host :
       std::vector<std::string>{"127.0.0.1:" + port, "127.0.0.1", "localhost:" + port, "LOCALHOST", "[::1]:" + port,
                                "127.0.0.2", "labels.lan", "Labels.LAN:" + port}) {
    EXPECT_EQ(RawStatus(server.port(), GetWithHost(queue, host)), 200) << "Host: " << host;
  }
  // A page on the rebound name cannot save either.
  const std::string decision = json{{"item", folder_.manifest.items.front().id}, {"label", "correct"}}.dump();
  EXPECT_EQ(RawStatus(server.port(), LabelRequest(server, decision, "127.evil.example:" + port)), 403);
  EXPECT_TRUE(store_.Events().empty());
  EXPECT_EQ(RawStatus(server.port(), LabelRequest(server, decision, "127.0.0.1:" + port)), 200);
}

TEST(HostCheckTest, LoopbackAddressesAreParsed) {
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackAddress("127.3.2.1"));
  EXPECT_TRUE(IsLoopbackAddress("::1"));
  EXPECT_TRUE(IsLoopbackAddress("[::1]"));
  EXPECT_TRUE(IsLoopbackAddress("localhost"));
  EXPECT_FALSE(IsLoopbackAddress("127.evil.example"));
  EXPECT_FALSE(IsLoopbackAddress("127.0.0.1.nip.io"));
  EXPECT_FALSE(IsLoopbackAddress("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackAddress("::"));
  // With an access token (non-loopback bind) any IP literal is fine, names only when allowed.
  EXPECT_TRUE(HostAllowed("192.168.1.10:8080", "0.0.0.0", {}, /*loopback_only=*/false));
  EXPECT_FALSE(HostAllowed("192.168.1.10:8080", "127.0.0.1", {}, /*loopback_only=*/true));
  EXPECT_FALSE(HostAllowed("labels.lan:8080", "0.0.0.0", {}, /*loopback_only=*/false));
  EXPECT_TRUE(HostAllowed("labels.lan:8080", "0.0.0.0", {"labels.lan"}, /*loopback_only=*/false));
}

TEST_F(LabelServerHardeningTest, FiftySlowConnectionsAndIdleKeepAlivesDoNotStallALabeler) {
  RunningServer server(folder_, store_);
  // 50 slowloris connections: a request head that never ends, one byte every 100 ms.
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 50; ++i) {
    slow.push_back(std::make_unique<RawConnection>(server.port()));
    ASSERT_TRUE(slow.back()->connected());
    slow.back()->Send("GET /api/queue?labeler=alice HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
  }
  // 10 idle keep-alive connections, as browsers keep them after loading the page.
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 10; ++i) {
    idle.push_back(std::make_unique<RawConnection>(server.port()));
    idle.back()->Send("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  }
  std::atomic<bool> done{false};
  std::thread drip([&] {
    for (int round = 0; round < 100 && !done; ++round) {  // bounded: at most 10 s
      for (auto& connection : slow) connection->Send("a");
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  httplib::Client labeler("127.0.0.1", server.port());
  labeler.set_keep_alive(true);
  labeler.set_read_timeout(5, 0);
  const httplib::Headers headers = {{"X-CSRF-Token", server.server().page_token()}};
  std::vector<double> millis;
  for (int i = 0; i < 20; ++i) {
    const auto start = Clock::now();
    const json body = {{"item", folder_.manifest.items[i % folder_.manifest.items.size()].id},
                       {"label", i % 2 ? "correct" : "incorrect"}};
    auto result = labeler.Post("/api/label", headers, body.dump(), "application/json");
    millis.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    ASSERT_TRUE(result) << "decision " << i << " got no answer";
    ASSERT_EQ(result->status, 200) << result->body;
  }
  done = true;
  drip.join();
  const double worst = *std::max_element(millis.begin(), millis.end());
  std::cout << "[ figures  ] 50 slow + 10 idle connections: decision round trip median " << Median(millis)
            << " ms, worst " << worst << " ms\n";
  EXPECT_LT(Median(millis), 100.0);
  // A stalled labeler waits for a worker that only a timeout frees: the slow connections' 10 s request deadline or
  // an idle keep-alive's 5 s. The bound is half the shorter one, so it tells a stall from a busy machine (one
  // decision took 1.02 s while the test suite ran three tests at once on two cores, with nothing stalled).
  const double shortest_freeing_timeout_ms =
      static_cast<double>(RunningServer::DefaultOptions().http.keep_alive_timeout.count());
  EXPECT_LT(worst, shortest_freeing_timeout_ms / 2);
  EXPECT_EQ(store_.Events().size(), 20u);
}

TEST_F(LabelServerHardeningTest, ChunkedHundredMegabyteBodyIsRefusedInBoundedMemory) {
  RunningServer server(folder_, store_);
  ASSERT_TRUE(ResetPeakMemory()) << "cannot reset VmHWM";
  const long before = PeakResidentBytes();
  RawConnection connection(server.port());
  ASSERT_TRUE(connection.connected());
  const std::string head =
      "POST /api/label HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "X-CSRF-Token: " +
      server.server().page_token() + "\r\nTransfer-Encoding: chunked\r\n\r\n";
  ASSERT_TRUE(connection.Send(head));
  const std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";  // 64 KiB of JSON whitespace
  std::string response;
  size_t sent = 0;
  while (sent < (100u << 20)) {
    if (connection.Readable(0)) break;  // the server answered before the body: stop sending
    if (!connection.Send(chunk)) break;
    sent += 0x10000;
  }
  response = connection.ReadAll();
  const long growth = PeakResidentBytes() - before;
  std::cout << "[ figures  ] chunked body: " << (sent >> 20) << " MiB sent before the refusal, peak memory growth "
            << (growth >> 20) << " MiB\n";
  EXPECT_EQ(StatusOf(response), 411) << response.substr(0, 200);
  EXPECT_LT(growth, 32L << 20);
  EXPECT_LT(sent, 100u << 20) << "the server read the whole body";
  // Content-Length over the limit is refused from the header alone.
  EXPECT_EQ(
      RawStatus(server.port(),
                "POST /api/label HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                "application/json\r\nX-CSRF-Token: " +
                    server.server().page_token() + "\r\nContent-Length: 104857600\r\nConnection: close\r\n\r\n{}"),
      413);
  EXPECT_TRUE(store_.Events().empty());
  EXPECT_EQ(RawStatus(server.port(), GetWithHost("/api/queue?labeler=alice", "127.0.0.1")), 200);
}

TEST_F(LabelServerHardeningTest, OneMegabyteOfHeadersIsRefused) {
  RunningServer server(folder_, store_);
  std::string request = "GET /api/queue?labeler=alice HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (int i = 0; request.size() < (1u << 20); ++i) {
    request += "X-Pad-" + std::to_string(i) + ": " + std::string(4000, 'p') + "\r\n";
  }
  request += "Connection: close\r\n\r\n";
  RawConnection connection(server.port());
  ASSERT_TRUE(connection.connected());
  connection.Send(request);  // may stop early: the server stops reading at its budget
  const std::string response = connection.ReadAll();
  EXPECT_EQ(StatusOf(response), 431) << response.substr(0, 200);
  EXPECT_NE(response.find("headers are too large"), std::string::npos);
  EXPECT_EQ(RawStatus(server.port(), GetWithHost("/api/queue?labeler=alice", "127.0.0.1")), 200);
}

TEST_F(LabelServerHardeningTest, SavesOnAReusedConnectionAreNotHeldByNagle) {
  RunningServer server(folder_, store_);
  httplib::Client client("127.0.0.1", server.port());
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);  // as browsers do: only the server's side is under test
  const httplib::Headers headers = {{"X-CSRF-Token", server.server().page_token()}};
  std::vector<double> millis;
  for (int i = 0; i < 30; ++i) {
    const json body = {{"item", folder_.manifest.items[i % folder_.manifest.items.size()].id}, {"label", "correct"}};
    const auto start = Clock::now();
    auto result = client.Post("/api/label", headers, body.dump(), "application/json");
    millis.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    ASSERT_TRUE(result && result->status == 200);
  }
  millis.erase(millis.begin());  // the first one opened the connection
  std::cout << "[ figures  ] save round trip on a reused connection: median " << Median(millis) << " ms\n";
  // Without TCP_NODELAY every one of them waits for the client's delayed ACK: 40-44 ms.
  EXPECT_LT(Median(millis), 30.0);
}

TEST_F(LabelServerHardeningTest, LookAlikeInvisibleAndEmptyLabelerNamesAreRefused) {
  RunningServer server(folder_, store_);
  auto post = [&](const json& body) {
    httplib::Client client("127.0.0.1", server.port());
    return client.Post("/api/label", {{"X-CSRF-Token", server.server().page_token()}}, body.dump(), "application/json");
  };
  const std::string item = folder_.manifest.items.front().id;
  for (const std::string& name : std::vector<std::string>{std::string("ana\u200b"), std::string("\u0430na"),
                                                          std::string(""), std::string("an\u00ada")}) {
    auto result = post({{"labeler", name}, {"item", item}, {"label", "correct"}});
    ASSERT_TRUE(result);
    EXPECT_EQ(result->status, 400) << "labeler '" << name << "': " << result->body;
  }
  httplib::Client client("127.0.0.1", server.port());
  auto empty_queue = client.Get("/api/queue?labeler=");
  ASSERT_TRUE(empty_queue);
  EXPECT_EQ(empty_queue->status, 400) << "an empty ?labeler= is not the server's --labeler";
  // A full-width spelling is the same labeler as the ASCII one.
  auto wide = post({{"labeler", "\uff41\uff4e\uff41"}, {"item", item}, {"label", "correct"}});
  ASSERT_TRUE(wide && wide->status == 200) << (wide ? wide->body : "");
  ASSERT_EQ(store_.Events().size(), 1u);
  EXPECT_EQ(store_.Events().front().labeler, "ana");
}

TEST(LabelerNameTest, NormalizesAndRefusesSpoofs) {
  std::string problem;
  EXPECT_EQ(NormalizeLabelerName("ﬁona", problem).value_or(""), "fiona");  // U+FB01 ligature
  EXPECT_EQ(NormalizeLabelerName("Zoë Ng", problem).value_or(""), "Zoë Ng");
  EXPECT_EQ(NormalizeLabelerName("山田 taro", problem).value_or(""), "山田 taro");  // Han with Latin is allowed
  EXPECT_EQ(NormalizeLabelerName("Ольга", problem).value_or(""), "Ольга");          // one script, not Latin
  EXPECT_FALSE(NormalizeLabelerName("\u0430na", problem));
  EXPECT_NE(problem.find("mixes scripts"), std::string::npos) << problem;
  EXPECT_FALSE(NormalizeLabelerName("ana\u200b", problem));
  EXPECT_NE(problem.find("U+200B"), std::string::npos) << problem;
  EXPECT_FALSE(NormalizeLabelerName("ana\u2060", problem));  // word joiner
  EXPECT_FALSE(NormalizeLabelerName("\u3164", problem));     // Hangul filler: draws nothing
  EXPECT_FALSE(NormalizeLabelerName("", problem));
  EXPECT_FALSE(NormalizeLabelerName("\xed\xa0\x80", problem));  // an encoded surrogate
}

TEST(CsvCellTest, FormulaCellsAreNeutralizedAndRecoverable) {
  EXPECT_EQ(CsvField("alice"), "alice");
  EXPECT_EQ(CsvField("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(CsvField("+1"), "\"'+1\"");
  EXPECT_EQ(CsvField("-1"), "\"'-1\"");
  EXPECT_EQ(CsvField("@SUM(A1)"), "\"'@SUM(A1)\"");
  EXPECT_EQ(CsvField("\tx"), "\"'\tx\"");
  EXPECT_EQ(CsvField("'quoted"), "\"''quoted\"");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  // Recovery: unquote, then drop exactly one leading single quote when there is one.
  for (const std::string& value : std::vector<std::string>{"=1+2", "'x", "''", "plain", "-", "@"}) {
    std::string cell = CsvField(value);
    if (cell.front() == '"') {
      cell = cell.substr(1, cell.size() - 2);
      for (size_t at = cell.find("\"\""); at != std::string::npos; at = cell.find("\"\"", at + 1)) cell.erase(at, 1);
    }
    if (!cell.empty() && cell.front() == '\'') cell.erase(0, 1);
    EXPECT_EQ(cell, value);
  }
}

}  // namespace
}  // namespace evalsuite::labeling
