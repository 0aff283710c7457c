// SPDX-License-Identifier: GPL-2.0
#include "qmp.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vmtest {
namespace {

// What qemu 7.2 sends when a client connects (CRLF after each message).
const std::string_view greeting_text =
	"{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 22, \"minor\": 2, \"major\": 7}, "
	"\"package\": \"Debian 1:7.2+dfsg-7+deb12u18\"}, \"capabilities\": [\"oob\"]}}\r\n";

TEST(Qmp, ClassifyGreeting)
{
	const auto m = qmp_classify(Json::parse(greeting_text));
	const auto *g = std::get_if<QmpGreeting>(&m);
	ASSERT_NE(g, nullptr);
	EXPECT_EQ(g->version["qemu"]["major"], 7);
	EXPECT_EQ(g->capabilities, std::vector<std::string>{"oob"});
	EXPECT_THROW(qmp_classify(Json::parse(R"({"QMP": {"capabilities": "oob"}})")),
		     std::runtime_error);
	EXPECT_THROW(qmp_classify(Json::parse(R"({"QMP": []})")), std::runtime_error);
}

TEST(Qmp, ClassifyReturn)
{
	auto m = qmp_classify(Json::parse(R"({"return": {}, "id": 1})"));
	auto *r = std::get_if<QmpReturn>(&m);
	ASSERT_NE(r, nullptr);
	EXPECT_EQ(r->value, Json::object());
	EXPECT_EQ(r->id, 1);
	m = qmp_classify(Json::parse(R"({"return": {"status": "running", "running": true}})"));
	r = std::get_if<QmpReturn>(&m);
	ASSERT_NE(r, nullptr);
	EXPECT_EQ(r->value["status"], "running");
	EXPECT_TRUE(r->id.is_null());
}

TEST(Qmp, ClassifyError)
{
	const auto m = qmp_classify(Json::parse(
		R"({"id": 2, "error": {"class": "DeviceNotFound", "desc": "Device 'l9' not found"}})"));
	const auto *e = std::get_if<QmpError>(&m);
	ASSERT_NE(e, nullptr);
	EXPECT_EQ(e->error_class, "DeviceNotFound");
	EXPECT_EQ(e->desc, "Device 'l9' not found");
	EXPECT_EQ(e->id, 2);
	EXPECT_THROW(qmp_classify(Json::parse(R"({"error": {"class": "GenericError"}})")),
		     std::runtime_error);
	EXPECT_THROW(qmp_classify(Json::parse(R"({"error": "oops"})")), std::runtime_error);
}

TEST(Qmp, ClassifyEvent)
{
	const auto m = qmp_classify(Json::parse(
		R"({"timestamp": {"seconds": 1700000000, "microseconds": 1234},)"
		R"( "event": "SHUTDOWN", "data": {"guest": true, "reason": "guest-shutdown"}})"));
	const auto *ev = std::get_if<QmpEvent>(&m);
	ASSERT_NE(ev, nullptr);
	EXPECT_EQ(ev->name, "SHUTDOWN");
	EXPECT_EQ(ev->data["reason"], "guest-shutdown");
	EXPECT_EQ(ev->seconds, 1700000000);
	EXPECT_EQ(ev->microseconds, 1234);
	const auto stop = qmp_classify(Json::parse(R"({"event": "STOP"})"));
	ASSERT_TRUE(std::holds_alternative<QmpEvent>(stop));
	EXPECT_TRUE(std::get<QmpEvent>(stop).data.is_null());
	EXPECT_THROW(qmp_classify(Json::parse(R"({"event": 3})")), std::runtime_error);
}

TEST(Qmp, ClassifyUnknown)
{
	EXPECT_THROW(qmp_classify(Json::parse(R"({"hello": 1})")), std::runtime_error);
	EXPECT_THROW(qmp_classify(Json::parse("[1, 2]")), std::runtime_error);
}

TEST(Qmp, Command)
{
	EXPECT_EQ(qmp_command("qmp_capabilities", Json::object(), 1),
		  "{\"execute\":\"qmp_capabilities\",\"id\":1}\n");
	EXPECT_EQ(qmp_command("set_link", Json{{"name", "l0"}, {"up", false}}, 7),
		  "{\"arguments\":{\"name\":\"l0\",\"up\":false},\"execute\":\"set_link\",\"id\":7}\n");
	EXPECT_EQ(qmp_command("query-status", Json(), Json()), "{\"execute\":\"query-status\"}\n");
	// Whatever a name holds stays inside its JSON string.
	EXPECT_EQ(qmp_command("x\"\n", Json::object(), Json()), "{\"execute\":\"x\\\"\\n\"}\n");
}

TEST(Qmp, FramerWholeMessages)
{
	QmpFramer f;
	const auto got = f.feed(std::string(greeting_text) + "{\"return\": {}, \"id\": 1}\r\n");
	ASSERT_EQ(got.size(), 2U);
	EXPECT_TRUE(got[0].contains("QMP"));
	EXPECT_EQ(got[1]["id"], 1);
	EXPECT_EQ(f.pending(), 0U);
}

TEST(Qmp, FramerByteByByte)
{
	// Braces and quotes inside strings, escapes, nested lists, and a
	// pretty-printed message over several lines.
	const std::string stream =
		std::string(greeting_text) +
		"{\"event\": \"X\", \"data\": {\"s\": \"}{ \\\" ]\\\\\", \"l\": [[1], {}]}}\r\n"
		"{\n    \"return\": {\n        \"a\": \"b\"\n    }\n}\n";
	QmpFramer f;
	std::vector<Json> got;
	for (const char c : stream) {
		for (auto &j : f.feed(std::string_view(&c, 1)))
			got.push_back(std::move(j));
	}
	ASSERT_EQ(got.size(), 3U);
	EXPECT_EQ(got[1]["data"]["s"], "}{ \" ]\\");
	EXPECT_EQ(got[1]["data"]["l"], Json::parse("[[1], {}]"));
	EXPECT_EQ(got[2]["return"]["a"], "b");
	EXPECT_EQ(f.pending(), 0U);
}

TEST(Qmp, FramerSplitsAnywhere)
{
	const std::string stream = std::string(greeting_text) +
				   "{\"event\": \"STOP\"}{\"return\": {\"x\": \"{\"}, \"id\": 2}";
	for (std::size_t cut = 0; cut <= stream.size(); cut++) {
		QmpFramer f;
		auto got = f.feed(std::string_view(stream).substr(0, cut));
		for (auto &j : f.feed(std::string_view(stream).substr(cut)))
			got.push_back(std::move(j));
		ASSERT_EQ(got.size(), 3U) << "cut at " << cut;
		EXPECT_EQ(got[2]["return"]["x"], "{") << "cut at " << cut;
	}
}

TEST(Qmp, FramerPending)
{
	QmpFramer f;
	EXPECT_TRUE(f.feed("  \r\n{\"return\":").empty());
	EXPECT_EQ(f.pending(), 10U);
	EXPECT_EQ(f.feed(" {}}").size(), 1U);
	EXPECT_EQ(f.pending(), 0U);
}

TEST(Qmp, FramerRejectsGarbage)
{
	// The human monitor's banner is not QMP.
	QmpFramer hmp;
	EXPECT_THROW(hmp.feed("QEMU 7.2.22 monitor - type 'help' for more information\r\n"),
		     std::runtime_error);
	QmpFramer list;
	EXPECT_THROW(list.feed("[1]"), std::runtime_error);
	QmpFramer invalid;
	EXPECT_THROW(invalid.feed("{\"a\" 1}"), std::runtime_error);
	QmpFramer mismatched;
	EXPECT_THROW(mismatched.feed("{\"a\": [1}]"), std::runtime_error);
}

TEST(Qmp, FramerTooLong)
{
	QmpFramer f(16);
	EXPECT_EQ(f.feed("{\"a\": \"0123456\"}").size(), 1U); // 16 bytes
	EXPECT_THROW(f.feed("{\"a\": \"01234567\"}"), std::runtime_error);
}

} // namespace
} // namespace vmtest
