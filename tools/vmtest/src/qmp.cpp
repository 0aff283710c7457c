// SPDX-License-Identifier: GPL-2.0
#include "qmp.hpp"

#include "text.hpp"

#include <cstdio>
#include <stdexcept>

namespace vmtest {
namespace {

// The value of key in j if it is a string; throws otherwise.
std::string string_field(const Json &j, const char *key, std::string_view what)
{
	const auto it = j.find(key);
	if (it == j.end() || !it->is_string())
		throw std::runtime_error(std::string(what) + " without a string \"" + key + "\"");
	return it->get<std::string>();
}

// The value of key in j, null when absent.
Json optional_field(const Json &j, const char *key)
{
	const auto it = j.find(key);
	return it == j.end() ? Json() : *it;
}

std::int64_t integer_field(const Json &j, const char *key)
{
	const auto it = j.find(key);
	return it != j.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

QmpGreeting greeting(const Json &qmp)
{
	if (!qmp.is_object())
		throw std::runtime_error("QMP greeting that is not an object");
	QmpGreeting g{.version = optional_field(qmp, "version")};
	const Json caps = optional_field(qmp, "capabilities");
	if (!caps.is_null() && !caps.is_array())
		throw std::runtime_error("QMP greeting with capabilities that are not a list");
	for (const auto &c : caps) {
		if (!c.is_string())
			throw std::runtime_error("QMP greeting with a capability that is not a string");
		g.capabilities.push_back(c.get<std::string>());
	}
	return g;
}

QmpError error(const Json &j)
{
	const Json &e = j.at("error");
	if (!e.is_object())
		throw std::runtime_error("QMP error that is not an object");
	return QmpError{
		.error_class = string_field(e, "class", "QMP error"),
		.desc = string_field(e, "desc", "QMP error"),
		.id = optional_field(j, "id"),
	};
}

QmpEvent event(const Json &j)
{
	QmpEvent ev{
		.name = string_field(j, "event", "QMP event"),
		.data = optional_field(j, "data"),
	};
	if (const Json ts = optional_field(j, "timestamp"); ts.is_object()) {
		ev.seconds = integer_field(ts, "seconds");
		ev.microseconds = integer_field(ts, "microseconds");
	}
	return ev;
}

std::string printable(char c)
{
	if (c >= 0x20 && c < 0x7f)
		return std::string("'") + c + "'";
	char hex[8];
	std::snprintf(hex, sizeof(hex), "0x%02x", static_cast<unsigned char>(c));
	return hex;
}

} // namespace

QmpMessage qmp_classify(const Json &j)
{
	if (!j.is_object())
		throw std::runtime_error("QMP message that is not an object");
	if (j.contains("QMP"))
		return greeting(j.at("QMP"));
	if (j.contains("return"))
		return QmpReturn{.value = j.at("return"), .id = optional_field(j, "id")};
	if (j.contains("error"))
		return error(j);
	if (j.contains("event"))
		return event(j);
	std::string sample = j.dump();
	if (sample.size() > 80)
		sample = sample.substr(0, 77) + "...";
	throw std::runtime_error("unknown QMP message " + sample);
}

std::string qmp_command(std::string_view execute, const Json &arguments, const Json &id)
{
	Json cmd{{"execute", execute}};
	if (!arguments.is_null() && !arguments.empty())
		cmd["arguments"] = arguments;
	if (!id.is_null())
		cmd["id"] = id;
	return cmd.dump() + "\n";
}

std::vector<Json> QmpFramer::feed(std::string_view bytes)
{
	std::vector<Json> messages;
	for (const char c : bytes) {
		if (depth_ == 0) {
			// between messages: only whitespace, then the next '{'
			if (is_blank(c))
				continue;
			if (c != '{')
				throw std::runtime_error("QMP stream has " + printable(c) +
							 " where a message should start");
			buf_ = c;
			depth_ = 1;
			continue;
		}
		buf_ += c;
		if (buf_.size() > max_)
			throw std::runtime_error("QMP message longer than " + std::to_string(max_) +
						 " bytes");
		if (in_string_) {
			if (escape_)
				escape_ = false;
			else if (c == '\\')
				escape_ = true;
			else if (c == '"')
				in_string_ = false;
			continue;
		}
		if (c == '"') {
			in_string_ = true;
		} else if (c == '{' || c == '[') {
			depth_++;
		} else if ((c == '}' || c == ']') && --depth_ == 0) {
			Json j = Json::parse(buf_, nullptr, false);
			if (j.is_discarded())
				throw std::runtime_error("QMP message is not valid JSON: " +
							 buf_.substr(0, 80));
			messages.push_back(std::move(j));
			buf_.clear();
		}
	}
	return messages;
}

} // namespace vmtest
