// SPDX-License-Identifier: GPL-2.0
//
// A small ordered YAML tree and the printer that lays it out the way
// Lustre's lnetctl does (4-space mappings, sequences under a top-level key
// indented by 4, nested sequences by 2), so scripts written against that
// output read ours unchanged.
#ifndef LNETCTL_YAML_OUT_HPP
#define LNETCTL_YAML_OUT_HPP

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace lnetctl::yaml {

struct Entry;
struct Node;

using Map = std::vector<Entry>;
using Seq = std::vector<Node>;

struct Scalar {
	enum class Style {
		plain_if_safe,	// quoted only when needed to read back
		quoted,		// always double-quoted
		raw,		// never quoted (numbers, True/False)
		comment,	// "# text"; as a sequence item, a line of its own
	};

	std::string text;
	Style style = Style::plain_if_safe;
};

struct Node {
	std::variant<Scalar, Map, Seq> value;
};

struct Entry {
	std::string key;
	Node value;
};

// A string, quoted only if plain YAML would not read it back unchanged.
Node str(std::string_view text);
// A string that is always double-quoted (e.g. CPT: "[0,1]").
Node quoted(std::string_view text);
// A comment line among a sequence's items, at their indentation:
// "    # 3 more not listed". Readers of the YAML do not see it.
Node comment(std::string_view text);
// True/False, spelled as lnetctl does.
Node boolean(bool value);
// true/false, as Lustre's lnetctl export spells it.
Node lower_boolean(bool value);
Node map(Map entries);
Node seq(Seq items);

template <std::integral T>
Node num(T value)
{
	return Node{ Scalar{ std::to_string(value), Scalar::Style::raw } };
}

inline void add(Map &m, std::string key, Node value)
{
	m.push_back(Entry{ std::move(key), std::move(value) });
}

// Whether a string needs quotes to survive a YAML round trip as a string.
bool needs_quotes(std::string_view text);

// The document for a top-level mapping; "" for an empty one.
// How sequences are laid out. show: "- " two columns right of the key
// (four under a top-level one), as lnetctl's show commands print.
// exported: as Lustre's lnetctl export writes its sequences (net, route,
// peer): the dash in the key's column, the item's keys six columns right
// of it, and mappings inside them six columns deeper; top-level mappings
// (global) as in show.
enum class Layout { show, exported };

std::string render(const Map &root, Layout layout = Layout::show);

}  // namespace lnetctl::yaml

#endif  // LNETCTL_YAML_OUT_HPP
