// SPDX-License-Identifier: GPL-2.0
#include "outcome.hpp"

#include <algorithm>

namespace lnetctl {

void Outcome::fail(std::string_view command, std::string_view entity, int err,
		   std::string descr)
{
	errors.push_back(ErrorItem{ std::string(command), std::string(entity),
				    err, std::move(descr) });
}

void Outcome::fail(std::string_view command, std::string_view entity,
		   std::string_view context, const KernelError &e)
{
	std::string descr = e.standalone() ? e.what() :
			    std::string(context) + ": " + e.what();

	fail(command, entity, e.error(), std::move(descr));
}

yaml::Map render_errors(std::span<const ErrorItem> errors)
{
	yaml::Map root;

	for (const auto &e : errors) {
		auto it = std::find_if(root.begin(), root.end(),
				       [&](const yaml::Entry &entry) {
					       return entry.key == e.command;
				       });
		yaml::Map detail;
		yaml::Map item;

		if (it == root.end()) {
			yaml::add(root, e.command, yaml::seq({}));
			it = root.end() - 1;
		}
		yaml::add(detail, "errno", yaml::num(-e.err));
		yaml::add(detail, "descr", yaml::str(e.descr));
		yaml::add(item, e.entity, yaml::map(std::move(detail)));
		std::get<yaml::Seq>(it->value.value).push_back(
			yaml::map(std::move(item)));
	}
	return root;
}

}  // namespace lnetctl
