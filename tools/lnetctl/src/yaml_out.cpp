// SPDX-License-Identifier: GPL-2.0
#include "yaml_out.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace lnetctl::yaml {
namespace {

constexpr int map_step = 4;		// children of a key
constexpr int top_seq_indent = 4;	// "- " under a top-level key
constexpr int seq_step = 2;		// "- " under a nested key

std::string lower(std::string_view s)
{
	std::string out(s);

	std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
		return static_cast<char>(std::tolower(c));
	});
	return out;
}

std::string quote(std::string_view s)
{
	std::string out = "\"";

	for (char c : s) {
		if (c == '"' || c == '\\')
			out += '\\';
		if (c == '\n') {
			out += "\\n";
			continue;
		}
		out += c;
	}
	out += '"';
	return out;
}

std::string scalar_text(const Scalar &s)
{
	switch (s.style) {
	case Scalar::Style::quoted:
		return quote(s.text);
	case Scalar::Style::raw:
		return s.text;
	case Scalar::Style::comment:
		return "# " + s.text;
	case Scalar::Style::plain_if_safe:
		break;
	}
	return needs_quotes(s.text) ? quote(s.text) : s.text;
}

constexpr int exported_step = 6;	// Layout::exported, inside sequences

class Printer {
public:
	explicit Printer(Layout layout) : layout_(layout) {}

	std::string out;

	void map_body(const Map &m, int indent, bool first_inline)
	{
		bool first = true;

		for (const auto &e : m) {
			if (!(first && first_inline))
				pad(indent);
			first = false;
			entry(e, indent);
		}
	}

private:
	Layout layout_;
	int seq_depth_ = 0;

	bool exported_seq() const
	{
		return layout_ == Layout::exported && seq_depth_ > 0;
	}

	void pad(int n) { out.append(static_cast<std::size_t>(n), ' '); }

	void entry(const Entry &e, int indent)
	{
		out += e.key;
		out += ':';
		if (const auto *s = std::get_if<Scalar>(&e.value.value)) {
			out += ' ';
			out += scalar_text(*s);
			out += '\n';
		} else if (const auto *m = std::get_if<Map>(&e.value.value)) {
			if (m->empty()) {
				out += " {}\n";
				return;
			}
			out += '\n';
			map_body(*m, indent + (exported_seq() ? exported_step : map_step),
				 false);
		} else {
			const auto &q = std::get<Seq>(e.value.value);

			if (q.empty()) {
				out += " []\n";
				return;
			}
			out += '\n';
			if (layout_ == Layout::exported)
				sequence(q, indent);
			else
				sequence(q, indent == 0 ? top_seq_indent : indent + seq_step);
		}
	}

	void sequence(const Seq &q, int dash)
	{
		const int step = layout_ == Layout::exported ? exported_step : 2;

		++seq_depth_;
		for (const auto &item : q) {
			const auto *s = std::get_if<Scalar>(&item.value);

			pad(dash);
			if (!s || s->style != Scalar::Style::comment) {
				out += '-';
				pad(step - 1);
			}
			if (s) {
				out += scalar_text(*s);
				out += '\n';
			} else if (const auto *m = std::get_if<Map>(&item.value)) {
				if (m->empty())
					out += "{}\n";
				else
					map_body(*m, dash + step, true);
			} else {
				const auto &inner = std::get<Seq>(item.value);

				if (inner.empty()) {
					out += "[]\n";
					continue;
				}
				out += '\n';
				sequence(inner, dash + step + seq_step);
			}
		}
		--seq_depth_;
	}
};

}  // namespace

Node str(std::string_view text)
{
	return Node{ Scalar{ std::string(text), Scalar::Style::plain_if_safe } };
}

Node quoted(std::string_view text)
{
	return Node{ Scalar{ std::string(text), Scalar::Style::quoted } };
}

Node comment(std::string_view text)
{
	return Node{ Scalar{ std::string(text), Scalar::Style::comment } };
}

Node boolean(bool value)
{
	return Node{ Scalar{ value ? "True" : "False", Scalar::Style::raw } };
}

Node lower_boolean(bool value)
{
	return Node{ Scalar{ value ? "true" : "false", Scalar::Style::raw } };
}

Node map(Map entries)
{
	return Node{ std::move(entries) };
}

Node seq(Seq items)
{
	return Node{ std::move(items) };
}

bool needs_quotes(std::string_view s)
{
	static constexpr std::string_view indicators = "-?:,[]{}#&*!|>'\"%@`";
	static constexpr std::array<std::string_view, 11> keywords = {
		"true", "false", "yes", "no", "on", "off", "null", "~", "y",
		"n", "",
	};

	if (s.empty() || s.front() == ' ' || s.back() == ' ')
		return true;
	if (indicators.find(s.front()) != std::string_view::npos) {
		// "-1" and "-x" style words read back as plain scalars
		bool plain_dash = s.front() == '-' && s.size() > 1 && s[1] != ' ';

		if (!plain_dash)
			return true;
	}
	if (s.back() == ':')
		return true;
	if (s.find(": ") != std::string_view::npos ||
	    s.find(" #") != std::string_view::npos ||
	    s.find('\n') != std::string_view::npos ||
	    s.find('\t') != std::string_view::npos)
		return true;
	return std::find(keywords.begin(), keywords.end(), lower(s)) !=
	       keywords.end();
}

std::string render(const Map &root, Layout layout)
{
	Printer p(layout);

	p.map_body(root, 0, false);
	return p.out;
}

}  // namespace lnetctl::yaml
