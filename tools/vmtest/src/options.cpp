// SPDX-License-Identifier: GPL-2.0
#include "options.hpp"

#include <CLI/CLI.hpp>

#include <ostream>
#include <stdexcept>

namespace vmtest {
namespace {

bool valid_suite_name(std::string_view name)
{
	if (name.empty() || name.front() == '.')
		return false;
	for (char c : name) {
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
		if (!ok)
			return false;
	}
	return true;
}

std::filesystem::path absolute_from(const std::filesystem::path &p,
				    const std::filesystem::path &cwd)
{
	auto abs = (p.is_absolute() ? p : cwd / p).lexically_normal();
	if (!abs.has_filename() && abs != abs.root_path())
		abs = abs.parent_path(); // "/a/b/" -> "/a/b"
	return abs;
}

// NAME=VALUE, NAME a shell variable name that is not the runner's own.
bool valid_env(std::string_view kv)
{
	const auto eq = kv.find('=');
	if (eq == 0 || eq == std::string_view::npos)
		return false;
	const auto name = kv.substr(0, eq);
	if (name.starts_with("GUEST_") || name.starts_with("LNET_"))
		return false;
	for (std::size_t i = 0; i < name.size(); i++) {
		const char c = name[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
			  (i > 0 && c >= '0' && c <= '9');
		if (!ok)
			return false;
	}
	return kv.find('\n') == std::string_view::npos;
}

// Everything that CLI11 cannot check by itself.
Options resolve(Options o, const std::vector<std::string> &link_specs, std::string_view expect,
		std::string_view top_arg, const char *env_top, std::string_view run_dir_arg,
		const std::filesystem::path &cwd)
{
	if (!valid_suite_name(o.suite))
		throw std::invalid_argument("--suite " + o.suite +
					    ": use letters, digits, '-', '_' and '.' only");
	if (o.script.empty())
		throw std::invalid_argument("--script is empty");
	o.script = absolute_from(o.script, cwd);

	if (link_specs.empty()) {
		o.links = default_links(o.guests);
	} else {
		if (static_cast<int>(link_specs.size()) > max_links)
			throw std::invalid_argument("at most " + std::to_string(max_links) +
						    " links");
		for (const auto &spec : link_specs)
			o.links.push_back(parse_link(spec, o.guests));
	}

	if (!expect.empty())
		o.expect = category_from_string(expect);
	for (const auto &kv : o.env)
		if (!valid_env(kv))
			throw std::invalid_argument("--env " + kv + ": use NAME=VALUE, NAME a shell "
						    "variable name not starting with GUEST_ or LNET_");
	for (auto &p : o.shares)
		p = absolute_from(p, cwd);

	std::filesystem::path top = !top_arg.empty()            ? std::filesystem::path(top_arg) :
				    env_top && *env_top != '\0' ? std::filesystem::path(env_top) :
								  cwd;
	o.top = absolute_from(top, cwd);

	o.run_dir = run_dir_arg.empty() ? o.top / "build" / "vmtest" / o.suite :
					  absolute_from(run_dir_arg, cwd);
	return o;
}

} // namespace

std::string_view to_string(Kernel k)
{
	return k == Kernel::stock ? "stock" : "debug";
}

ParsedOptions parse_options(std::span<const char *const> argv, const char *env_top,
			    const std::filesystem::path &cwd, std::ostream &out, std::ostream &err)
{
	CLI::App app{"Boots qemu guests for one test suite, links them, enforces the "
		     "timeout, judges the run (Documentation/testing.md).",
		     "lnet-vmtest"};
	Options o;
	std::string kernel, script, expect, top, run_dir;
	std::vector<std::string> links;

	app.add_option("--suite", o.suite, "suite name (results line, default run dir)")
		->required();
	app.add_option("--kernel", kernel, "guest kernel: stock or debug")
		->required()
		->check(CLI::IsMember({"stock", "debug"}));
	app.add_option("--script", script, "absolute path of the guest test script")
		->required();
	app.add_option("--arg", o.args, "a word passed to the script (GUEST_ARGS); repeatable");
	app.add_option("--guests", o.guests, "number of guests")
		->capture_default_str()
		->check(CLI::Range(1, max_guests));
	app.add_option("--link", links, "A-B: link guest A and guest B; repeatable "
					"(default: the chain 0-1 1-2 ...)");
	app.add_option("--timeout", o.timeout_s, "seconds for the whole run")
		->capture_default_str()
		->check(CLI::Range(1, 7 * 24 * 3600));
	app.add_option("--mem", o.mem_mb, "MB of memory per guest")
		->capture_default_str()
		->check(CLI::Range(64, 1 << 20));
	app.add_option("--smp", o.smp, "vCPUs per guest")
		->capture_default_str()
		->check(CLI::Range(1, 8));
	app.add_option("--kernel-arg", o.kernel_args,
		       "word appended to the guest kernel command line; repeatable");
	app.add_option("--run-dir", run_dir, "run directory, wiped first "
					     "(default: <top>/build/vmtest/<suite>)");
	app.add_option("--expect", expect, "self-check: pass iff this category is detected")
		->check(CLI::IsMember({"kunit-fail", "lockdep", "kasan", "kmemleak", "warning",
				       "bug"}));
	app.add_option("--env", o.env, "NAME=VALUE for the guest's environment; repeatable");
	app.add_option("--share", o.shares, "a host directory the guest must see at its own path "
					    "(the work tree, ../shared and the cache always are); "
					    "repeatable");
	app.add_option("--top", top, "work tree (default: $LNET_TOP, else the current directory)");
	app.add_flag("--verbose,-v", o.verbose, "also print the passed results");

	try {
		app.parse(static_cast<int>(argv.size()), argv.data());
	} catch (const CLI::ParseError &e) {
		return {std::nullopt, app.exit(e, out, err) == 0 ? 0 : 2};
	}
	o.kernel = kernel == "debug" ? Kernel::debug : Kernel::stock;
	o.script = script;
	try {
		return {resolve(std::move(o), links, expect, top, env_top, run_dir, cwd), 0};
	} catch (const std::invalid_argument &e) {
		err << "lnet-vmtest: " << e.what() << "\n";
		return {std::nullopt, 2};
	}
}

} // namespace vmtest
