// SPDX-License-Identifier: GPL-2.0
#include "ktap.hpp"

#include "text.hpp"

#include <utility>

namespace vmtest {
namespace {

// One "ok"/"not ok" line, plus what preceded it at its level: diagnostics
// and, for a suite or a parameterised case, the nested group of results.
struct ResultNode;

// The lines at one indentation level: an optional "# Subtest:" name, an
// optional plan and the results.
struct Group {
	int indent = 0;
	std::string name{};
	std::optional<long> plan{};
	std::vector<ResultNode> results{};
	std::vector<std::string> pending_diag{}; // since the last result
};

struct ResultNode {
	bool ok = false;
	bool skip = false;
	std::string name{};
	std::string directive{};
	std::vector<std::string> diag{};
	std::vector<Group> children{}; // zero or one
};

enum class Kind { blank, version, subtest, plan, result, diagnostic };

struct Line {
	int indent = 0;
	Kind kind = Kind::blank;
	std::string_view body{}; // text after the indentation
	long plan = 0;
	ResultNode result;
};

bool starts_with_nocase(std::string_view s, std::string_view prefix)
{
	if (s.size() < prefix.size())
		return false;
	for (size_t i = 0; i < prefix.size(); i++) {
		char a = s[i], b = prefix[i];
		if (a >= 'a' && a <= 'z')
			a = static_cast<char>(a - 'a' + 'A');
		if (a != b)
			return false;
	}
	return true;
}

std::optional<long> parse_plan(std::string_view body)
{
	if (!body.starts_with("1.."))
		return std::nullopt;
	body.remove_prefix(3);
	auto end = body.find_first_not_of("0123456789");
	auto digits = body.substr(0, end);
	auto rest = end == std::string_view::npos ? std::string_view{} : trim(body.substr(end));
	if (digits.empty() || !(rest.empty() || rest.starts_with("#")))
		return std::nullopt;
	return parse_long(digits);
}

// "ok 3 - name # SKIP why", "not ok 1 name" (6.1 KUnit drops the dash).
std::optional<ResultNode> parse_result(std::string_view body)
{
	ResultNode r;
	if (body.starts_with("ok ")) {
		r.ok = true;
		body.remove_prefix(3);
	} else if (body.starts_with("not ok ")) {
		body.remove_prefix(7);
	} else {
		return std::nullopt;
	}
	auto end = body.find_first_not_of("0123456789");
	if (end == 0)
		return std::nullopt;
	body = end == std::string_view::npos ? std::string_view{} : body.substr(end);
	body = trim(body);
	if (body.starts_with("- "))
		body.remove_prefix(2);
	else if (body == "-")
		body = {};
	std::string_view directive{};
	if (body.starts_with("# ")) {
		directive = body.substr(2);
		body = {};
	} else if (auto hash = body.find(" # "); hash != std::string_view::npos) {
		directive = body.substr(hash + 3);
		body = body.substr(0, hash);
	}
	r.name = std::string(trim(body));
	r.directive = std::string(trim(directive));
	r.skip = starts_with_nocase(r.directive, "SKIP");
	return r;
}

Line classify(std::string_view raw)
{
	Line line;
	size_t pos = 0;
	for (; pos < raw.size(); pos++) {
		if (raw[pos] == ' ')
			line.indent++;
		else if (raw[pos] == '\t')
			line.indent = (line.indent / 8 + 1) * 8;
		else
			break;
	}
	line.body = trim(raw.substr(pos));
	if (line.body.empty())
		return line;
	if (line.body.starts_with("KTAP version") || line.body.starts_with("TAP version")) {
		line.kind = Kind::version;
	} else if (line.body.starts_with("# Subtest:")) {
		line.kind = Kind::subtest;
		line.body = trim(line.body.substr(10));
	} else if (auto plan = parse_plan(line.body)) {
		line.kind = Kind::plan;
		line.plan = *plan;
	} else if (auto result = parse_result(line.body)) {
		line.kind = Kind::result;
		line.result = std::move(*result);
	} else {
		line.kind = Kind::diagnostic;
	}
	return line;
}

// Builds the tree of groups from the indentation, the way KTAP nests:
// a subtest's lines come first, indented, then its parent's result line.
class TreeBuilder {
public:
	void feed(Line line)
	{
		switch (line.kind) {
		case Kind::blank:
			return;
		case Kind::diagnostic:
			owner_of(line.indent).pending_diag.emplace_back(line.body);
			return;
		default:
			break;
		}
		if (line.kind == Kind::version && line.indent == 0 && stack_.size() == 1 &&
		    has_content(stack_.front())) {
			// A second document in the same file.
			finish_document();
		}
		auto child = close_deeper(line.indent);
		if (stack_.back().indent < line.indent)
			stack_.push_back(Group{.indent = line.indent});
		Group &top = stack_.back();
		switch (line.kind) {
		case Kind::subtest:
			if (top.name.empty())
				top.name = std::string(line.body);
			break;
		case Kind::plan:
			if (!top.plan)
				top.plan = line.plan;
			break;
		case Kind::result:
			line.result.diag = std::move(top.pending_diag);
			top.pending_diag.clear();
			if (child)
				line.result.children.push_back(std::move(*child));
			top.results.push_back(std::move(line.result));
			break;
		default:
			break;
		}
	}

	struct Document {
		Group root;
		std::vector<Group> open; // groups never closed by a result line
	};

	std::vector<Document> finish()
	{
		finish_document();
		return std::move(documents_);
	}

private:
	static bool has_content(const Group &g)
	{
		return g.plan || !g.results.empty() || !g.name.empty();
	}

	Group &owner_of(int indent)
	{
		for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
			if (it->indent <= indent)
				return *it;
		return stack_.front();
	}

	// Pops the groups deeper than indent; returns the shallowest of them,
	// which belongs to a result line at indent (if that is what comes).
	std::optional<Group> close_deeper(int indent)
	{
		std::optional<Group> child;
		while (stack_.size() > 1 && stack_.back().indent > indent) {
			child = std::move(stack_.back());
			stack_.pop_back();
		}
		return child;
	}

	void finish_document()
	{
		Document doc;
		doc.root = std::move(stack_.front());
		for (size_t i = 1; i < stack_.size(); i++)
			doc.open.push_back(std::move(stack_[i]));
		if (has_content(doc.root) || !doc.open.empty())
			documents_.push_back(std::move(doc));
		stack_.clear();
		stack_.push_back(Group{});
	}

	std::vector<Group> stack_{Group{}};
	std::vector<Document> documents_{};
};

bool is_stats_line(std::string_view diag)
{
	return diag.find("pass:") != std::string_view::npos &&
	       diag.find("total:") != std::string_view::npos;
}

std::string strip_comment(std::string_view diag)
{
	if (diag.starts_with("#"))
		diag.remove_prefix(1);
	return std::string(trim(diag));
}

// The most telling line about why a result failed.
std::string failure_reason(const ResultNode &r)
{
	std::vector<const std::vector<std::string> *> sources{&r.diag};
	for (const auto &g : r.children)
		sources.push_back(&g.pending_diag);
	for (const auto *lines : sources)
		for (const auto &d : *lines)
			if (d.find("FAIL") != std::string::npos)
				return strip_comment(d);
	for (const auto *lines : sources)
		for (const auto &d : *lines)
			if (!is_stats_line(d))
				return strip_comment(d);
	for (const auto &g : r.children)
		for (const auto &p : g.results)
			if (!p.ok && !p.skip)
				return "parameter " + p.name + " failed";
	return "not ok";
}

KtapCase to_case(const ResultNode &r)
{
	KtapCase c{.name = r.name};
	if (r.skip) {
		c.status = CaseStatus::skip;
		std::string_view why = trim(std::string_view(r.directive).substr(4));
		c.reason = why.empty() ? "skipped" : "skipped: " + std::string(why);
	} else if (!r.ok) {
		c.status = CaseStatus::fail;
		c.reason = failure_reason(r);
	}
	return c;
}

std::optional<std::string> plan_problem(const Group &g)
{
	if (!g.plan)
		return "no KTAP plan line";
	auto found = static_cast<long>(g.results.size());
	if (found < *g.plan)
		return "truncated: " + std::to_string(found) + " of " +
		       std::to_string(*g.plan) + " results";
	if (found > *g.plan)
		return std::to_string(found) + " results but the plan is 1.." +
		       std::to_string(*g.plan);
	return std::nullopt;
}

// A suite from its group of cases. wrapper is the suite's own result line:
// null for a flat document (which has none) or when the file ends first.
KtapSuite make_suite(const Group &g, const ResultNode *wrapper, bool wrapper_expected,
		     std::string_view fallback)
{
	KtapSuite s;
	s.name = !g.name.empty() ? g.name :
		 wrapper && !wrapper->name.empty() ? wrapper->name : std::string(fallback);
	for (const auto &r : g.results)
		s.cases.push_back(to_case(r));
	s.problem = plan_problem(g);
	if (wrapper_expected && !wrapper && !s.problem)
		s.problem = "truncated: no result line for the suite";
	s.suite_failed = wrapper && !wrapper->ok && !wrapper->skip;
	return s;
}

bool wraps_suite(const ResultNode &r)
{
	return !r.children.empty() && r.children.front().plan.has_value();
}

void interpret(const TreeBuilder::Document &doc, std::string_view fallback,
	       std::vector<KtapSuite> &out)
{
	const Group &root = doc.root;
	const Group *open_suite = !doc.open.empty() && doc.open.front().plan ?
				  &doc.open.front() : nullptr;
	bool all_wrap = true;
	for (const auto &r : root.results)
		all_wrap = all_wrap && wraps_suite(r);
	bool suites_mode = root.results.empty() ? open_suite != nullptr : all_wrap;

	if (!suites_mode) {
		out.push_back(make_suite(root, nullptr, false, fallback));
		return;
	}
	for (const auto &r : root.results)
		out.push_back(make_suite(r.children.front(), &r, true, fallback));
	if (open_suite)
		out.push_back(make_suite(*open_suite, nullptr, true, fallback));
	auto seen = static_cast<long>(root.results.size() + (open_suite ? 1 : 0));
	if (root.plan && seen < *root.plan) {
		KtapSuite missing{.name = std::string(fallback)};
		missing.problem = "truncated: " + std::to_string(seen) + " of " +
				  std::to_string(*root.plan) + " suites";
		out.push_back(std::move(missing));
	}
}

} // namespace

std::vector<KtapSuite> parse_ktap(std::string_view text, std::string_view fallback_name)
{
	TreeBuilder builder;
	for (auto raw : split_lines(text))
		builder.feed(classify(raw));
	std::vector<KtapSuite> suites{};
	for (const auto &doc : builder.finish())
		interpret(doc, fallback_name, suites);
	if (suites.empty()) {
		KtapSuite empty{.name = std::string(fallback_name)};
		empty.problem = "no KTAP plan line";
		suites.push_back(std::move(empty));
	}
	return suites;
}

} // namespace vmtest
