// SPDX-License-Identifier: GPL-2.0
// The run directory RUN: wiped and recreated for every run, with one
// directory per guest (RUN/g<i>, the guest's /mnt).
#pragma once

#include <filesystem>

namespace vmtest {

// Removes run and creates run/g0 .. run/g<guests-1>. Refuses (throws
// std::runtime_error) to touch a directory that contains the work tree
// top, or that holds anything but g<N> directories from an earlier run.
void prepare_run_dir(const std::filesystem::path &run, const std::filesystem::path &top,
		     int guests);

} // namespace vmtest
