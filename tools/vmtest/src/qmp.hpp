// SPDX-License-Identifier: GPL-2.0
// The QEMU Machine Protocol (QMP) on the wire, without any I/O: cutting a
// byte stream into messages, telling the kinds of message apart, and
// writing commands. monitor.hpp drives it over a guest's monitor socket.
//
// A session: qemu sends a greeting ({"QMP": {...}}); the client sends
// qmp_capabilities and waits for its return; then each command
// ({"execute": NAME, "arguments": {...}, "id": ID}) gets exactly one
// answer, {"return": VALUE, "id": ID} or {"error": {"class": C, "desc": D},
// "id": ID}. Events ({"event": NAME, "data": {...}, "timestamp": {...}})
// may arrive at any time, also between a command and its answer.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace vmtest {

using Json = nlohmann::json;

struct QmpGreeting {
	Json version{};				// {"qemu": {...}, "package": ...}
	std::vector<std::string> capabilities{};	// offered, e.g. "oob"
};

struct QmpReturn {
	Json value{};
	Json id{}; // null when the command carried none
};

struct QmpError {
	std::string error_class{}; // e.g. "GenericError", "DeviceNotFound"
	std::string desc{};
	Json id{}; // null also for a command qemu could not parse at all
};

struct QmpEvent {
	std::string name{}; // e.g. "SHUTDOWN", "STOP"
	Json data{};	     // null when the event has none
	std::int64_t seconds = 0;
	std::int64_t microseconds = 0;
};

using QmpMessage = std::variant<QmpGreeting, QmpReturn, QmpError, QmpEvent>;

// Which kind of message j is. Throws std::runtime_error for an object that
// is none of them or whose fields have the wrong types.
QmpMessage qmp_classify(const Json &j);

// One command as sent: compact JSON on one line, ending in "\n".
std::string qmp_command(std::string_view execute, const Json &arguments, const Json &id);

// Cuts a byte stream into its JSON objects, whatever the reads' boundaries:
// qemu ends each message with CRLF, but a pretty-printing monitor spreads
// one over several lines, so the cut follows the JSON nesting (outside
// strings) rather than the line ends.
class QmpFramer {
public:
	explicit QmpFramer(std::size_t max_message = 1024 * 1024) : max_(max_message) {}

	// The messages that bytes complete, parsed, in order. Throws
	// std::runtime_error on anything that is not a JSON object, on
	// invalid JSON and on a message longer than max_message; the framer
	// is of no further use then.
	std::vector<Json> feed(std::string_view bytes);

	// Bytes of an incomplete message held back (0 between messages).
	std::size_t pending() const { return buf_.size(); }

private:
	std::string buf_{}; // the current message, from its '{'
	std::size_t depth_ = 0;
	bool in_string_ = false;
	bool escape_ = false;
	std::size_t max_;
};

} // namespace vmtest
