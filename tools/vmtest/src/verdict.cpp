// SPDX-License-Identifier: GPL-2.0
#include "verdict.hpp"

#include "ktap.hpp"
#include "text.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace vmtest {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path &p)
{
	std::ifstream in(p, std::ios::binary);
	if (!in)
		return std::nullopt;
	std::ostringstream text;
	text << in.rdbuf();
	return text.str();
}

void judge_ktap(const GuestEvidence &g, Verdict &v)
{
	for (const auto &[stem, text] : g.ktap) {
		for (const auto &suite : parse_ktap(text, stem)) {
			bool case_failed = false;
			for (const auto &c : suite.cases) {
				v.results.push_back({g.name + ": kunit " + suite.name + "." + c.name,
						     c.status == CaseStatus::pass, c.reason});
				if (c.status == CaseStatus::fail)
					case_failed = true;
			}
			if (case_failed || suite.suite_failed)
				v.detected.insert(Category::kunit_fail);
			const std::string name = g.name + ": kunit " + suite.name;
			if (suite.problem)
				v.results.push_back({name, false, *suite.problem});
			else if (suite.suite_failed && !case_failed)
				v.results.push_back({name, false, "suite result is not ok"});
		}
	}
}

void judge_status(const GuestEvidence &g, Verdict &v)
{
	Result r{g.name + ": finished in time with status 0", false, {}};
	auto status = g.status ? trim(*g.status) : std::string_view{};
	if (!g.exit.finished) {
		r.reason = g.exit.note;
		v.unfinished.push_back(g.name + ": " + g.exit.note);
	} else if (!g.status) {
		r.reason = "no status file (the test script did not finish)";
		if (!g.exit.note.empty())
			r.reason += "; " + g.exit.note;
	} else if (status != "0") {
		r.reason = "status " + std::string(status.empty() ? "file empty" : status);
	} else {
		r.passed = true;
	}
	v.results.push_back(std::move(r));
}

void judge_console(const GuestEvidence &g, Verdict &v)
{
	Result r{g.name + ": console clean", true, {}};
	std::vector<Finding> found;
	if (g.console)
		found = scan_console(*g.console);
	if (g.kmemleak) {
		auto leaks = scan_kmemleak(*g.kmemleak);
		found.insert(found.end(), leaks.begin(), leaks.end());
	}
	for (const auto &f : found)
		v.detected.insert(f.category);
	if (!found.empty()) {
		r.passed = false;
		r.reason = found.front().line;
	} else if (!g.console || trim(*g.console).empty()) {
		r.passed = false;
		r.reason = "console.log missing or empty";
	}
	v.results.push_back(std::move(r));
}

} // namespace

GuestEvidence load_evidence(const fs::path &dir, std::string name, GuestExit exit)
{
	GuestEvidence g{.name = std::move(name), .exit = std::move(exit)};
	g.results = read_file(dir / "results");
	g.status = read_file(dir / "status");
	g.console = read_file(dir / "console.log");
	g.kmemleak = read_file(dir / "kmemleak");
	std::error_code ec;
	std::vector<fs::path> ktaps;
	for (const auto &entry : fs::directory_iterator(dir / "kunit", ec))
		if (entry.path().extension() == ".ktap")
			ktaps.push_back(entry.path());
	std::sort(ktaps.begin(), ktaps.end());
	for (const auto &p : ktaps)
		g.ktap.emplace_back(p.stem().string(), read_file(p).value_or(""));
	return g;
}

std::vector<Result> results_file(std::string_view guest, std::string_view text)
{
	std::vector<Result> out;
	const std::string prefix = std::string(guest) + ": ";
	int number = 0;
	for (auto raw : split_lines(text)) {
		number++;
		auto line = trim(raw);
		if (line.empty())
			continue;
		if (line.starts_with("ok ") || line == "ok") {
			auto name = trim(line.substr(2));
			out.push_back({prefix + std::string(name.empty() ? "(unnamed)" : name), true, {}});
		} else if (line.starts_with("not ok")) {
			auto rest = trim(line.substr(6));
			std::string_view reason = "not ok";
			if (auto hash = rest.find(" # "); hash != std::string_view::npos) {
				reason = trim(rest.substr(hash + 3));
				rest = trim(rest.substr(0, hash));
			} else if (rest.starts_with("# ")) {
				reason = trim(rest.substr(2));
				rest = {};
			}
			out.push_back({prefix + std::string(rest.empty() ? "(unnamed)" : rest), false,
				       std::string(reason.empty() ? "not ok" : reason)});
		} else {
			out.push_back({prefix + "results line " + std::to_string(number), false,
				       "malformed: " + std::string(line)});
		}
	}
	return out;
}

Verdict judge(std::span<const GuestEvidence> guests)
{
	Verdict v;
	for (const auto &g : guests) {
		if (g.results) {
			auto rs = results_file(g.name, *g.results);
			v.results.insert(v.results.end(), rs.begin(), rs.end());
		}
		judge_ktap(g, v);
		judge_status(g, v);
		judge_console(g, v);
	}
	return v;
}

std::vector<Result> expect_results(const Verdict &verdict, Category expected)
{
	Result caught{"bench caught " + std::string(to_string(expected)),
		      verdict.detected.contains(expected), {}};
	if (!caught.passed) {
		std::string seen;
		for (auto c : verdict.detected)
			seen += (seen.empty() ? "" : ", ") + std::string(to_string(c));
		caught.reason = "not detected (detected: " + (seen.empty() ? "nothing" : seen) + ")";
	}
	Result finished{"guest finished", verdict.unfinished.empty(), {}};
	for (const auto &note : verdict.unfinished)
		finished.reason += (finished.reason.empty() ? "" : "; ") + note;
	return {caught, finished};
}

std::string format_result(const Result &r)
{
	if (r.passed)
		return "PASS " + r.name;
	return "FAIL " + r.name + ": " + r.reason;
}

size_t count_failed(std::span<const Result> results)
{
	return static_cast<size_t>(
		std::count_if(results.begin(), results.end(), [](const Result &r) { return !r.passed; }));
}

std::string summary_line(std::string_view suite, std::span<const Result> results)
{
	auto failed = count_failed(results);
	return "suite " + std::string(suite) + ": " + std::to_string(results.size() - failed) +
	       " passed, " + std::to_string(failed) + " failed";
}

} // namespace vmtest
