// SPDX-License-Identifier: GPL-2.0
#include "rundir.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace vmtest {
namespace {

namespace fs = std::filesystem;

bool is_guest_dir_name(const std::string &name)
{
	return name.size() > 1 && name[0] == 'g' &&
	       std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

void prepare_run_dir(const fs::path &run, const fs::path &top, int guests)
{
	const auto r = run.lexically_normal(), t = top.lexically_normal();
	if (std::mismatch(r.begin(), r.end(), t.begin(), t.end()).first == r.end())
		throw std::runtime_error("refusing to use " + run.string() +
					 " as run directory: it contains the work tree");
	if (fs::exists(run)) {
		if (!fs::is_directory(run))
			throw std::runtime_error("run directory " + run.string() +
						 " is not a directory");
		for (const auto &entry : fs::directory_iterator(run))
			if (!entry.is_directory() || entry.is_symlink() ||
			    !is_guest_dir_name(entry.path().filename()))
				throw std::runtime_error("refusing to wipe " + run.string() +
							 ": it holds " +
							 entry.path().filename().string() +
							 ", which lnet-vmtest did not create");
		fs::remove_all(run);
	}
	for (int i = 0; i < guests; i++)
		fs::create_directories(run / ("g" + std::to_string(i)));
}

} // namespace vmtest
