// SPDX-License-Identifier: GPL-2.0
// The YAML printer: layout and quoting.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "yaml_out.hpp"

namespace lnetctl::yaml {
namespace {

TEST(YamlOut, TopLevelMappingIndentsByFour)
{
	Map inner;
	add(inner, "a", num(1));
	add(inner, "b", str("x"));
	Map root;
	add(root, "global", map(std::move(inner)));

	EXPECT_EQ(render(root), "global:\n    a: 1\n    b: x\n");
}

TEST(YamlOut, SequenceLayoutMatchesLnetctl)
{
	Map ifs;
	add(ifs, "0", str("eth0"));
	Map ni;
	add(ni, "nid", str("192.168.1.10@tcp"));
	add(ni, "interfaces", map(std::move(ifs)));
	Map net;
	add(net, "net type", str("tcp"));
	add(net, "local NI(s)", seq({ map(std::move(ni)) }));
	Map root;
	add(root, "net", seq({ map(std::move(net)) }));

	EXPECT_EQ(render(root), "net:\n"
				"    - net type: tcp\n"
				"      local NI(s):\n"
				"        - nid: 192.168.1.10@tcp\n"
				"          interfaces:\n"
				"              0: eth0\n");
}

TEST(YamlOut, EmptyContainersAndRoot)
{
	Map root;
	EXPECT_EQ(render(root), "");
	add(root, "a", seq({}));
	add(root, "b", map({}));
	EXPECT_EQ(render(root), "a: []\nb: {}\n");
}

TEST(YamlOut, ScalarSequenceItems)
{
	Map root;
	add(root, "peer list", seq({ str("1.2.3.4@tcp"), num(-1) }));
	EXPECT_EQ(render(root), "peer list:\n    - 1.2.3.4@tcp\n    - -1\n");
}

TEST(YamlOut, CommentItemsStandAlone)
{
	Map item;
	add(item, "nid", str("1.2.3.4@tcp"));
	Map inner;
	add(inner, "list", seq({ num(1), comment("1 more") }));
	Map root;
	add(root, "queue", seq({ map(std::move(item)), comment("2 more not listed") }));
	add(root, "nested", map(std::move(inner)));
	add(root, "only", seq({ comment("nothing") }));
	const std::string text = render(root);
	EXPECT_EQ(text, "queue:\n"
			"    - nid: 1.2.3.4@tcp\n"
			"    # 2 more not listed\n"
			"nested:\n"
			"    list:\n"
			"      - 1\n"
			"      # 1 more\n"
			"only:\n"
			"    # nothing\n");

	YAML::Node doc = YAML::Load(text);
	EXPECT_EQ(doc["queue"].size(), 1U);
	EXPECT_EQ(doc["queue"][0]["nid"].as<std::string>(), "1.2.3.4@tcp");
	EXPECT_EQ(doc["nested"]["list"].size(), 1U);
	EXPECT_TRUE(doc["only"].IsNull());
}

TEST(YamlOut, NeedsQuotes)
{
	EXPECT_FALSE(needs_quotes("192.168.1.10@tcp"));
	EXPECT_FALSE(needs_quotes("0@lo"));
	EXPECT_FALSE(needs_quotes("<?>"));
	EXPECT_FALSE(needs_quotes("-1"));
	EXPECT_FALSE(needs_quotes("No such file or directory"));
	EXPECT_TRUE(needs_quotes("[0,1]"));
	EXPECT_TRUE(needs_quotes("cannot add: Invalid argument"));
	EXPECT_TRUE(needs_quotes(""));
	EXPECT_TRUE(needs_quotes("true"));
	EXPECT_TRUE(needs_quotes("No"));
	EXPECT_TRUE(needs_quotes("a #comment"));
	EXPECT_TRUE(needs_quotes("trailing:"));
	EXPECT_TRUE(needs_quotes("'x'"));
	EXPECT_TRUE(needs_quotes("- x"));
}

TEST(YamlOut, QuotedAndRawScalars)
{
	Map root;
	add(root, "CPT", quoted("[0,1]"));
	add(root, "descr", str("say \"hi\": now"));
	add(root, "Multi-Rail", boolean(true));
	add(root, "other", boolean(false));
	EXPECT_EQ(render(root), "CPT: \"[0,1]\"\n"
				"descr: \"say \\\"hi\\\": now\"\n"
				"Multi-Rail: True\n"
				"other: False\n");
}

TEST(YamlOut, OutputReadsBackWithYamlCpp)
{
	Map detail;
	add(detail, "errno", num(-22));
	add(detail, "descr", str("cannot parse 'x': bad [thing] # here"));
	Map item;
	add(item, "net", map(std::move(detail)));
	Map root;
	add(root, "add", seq({ map(std::move(item)) }));
	add(root, "CPT", quoted("[0]"));

	YAML::Node doc = YAML::Load(render(root));
	EXPECT_EQ(doc["add"][0]["net"]["errno"].as<int>(), -22);
	EXPECT_EQ(doc["add"][0]["net"]["descr"].as<std::string>(),
		  "cannot parse 'x': bad [thing] # here");
	EXPECT_EQ(doc["CPT"].as<std::string>(), "[0]");
}

}  // namespace
}  // namespace lnetctl::yaml
