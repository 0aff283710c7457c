// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the "networks" and "routes" parameter parsers
 * (lnet/config.c).
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/lnet/config.h>

#include "networks_vectors.h"

#define ERRLEN		160

static void str_desc(const char *s, char *desc)
{
	size_t n;

	n = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"");
	for (; *s; s++) {
		if (isgraph(*s) && *s != '"' && *s != '#' && *s != '\\')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "%c",
				       *s);
		else
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
				       "\\x%02x", (unsigned char)*s);
	}
	scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "\"");
}

static void networks_ok_desc(const struct networks_ok_vector *c, char *desc)
{
	str_desc(c->str, desc);
}

KUNIT_ARRAY_PARAM(networks_ok, networks_ok_vectors, networks_ok_desc);

static void config_networks_valid(struct kunit *test)
{
	const struct networks_ok_vector *c = test->param_value;
	const struct networks_vector_net *w = c->nets;
	struct lnet_net_config *nc;
	char err[ERRLEN] = "x";
	LIST_HEAD(nets);
	int i, n = 0;

	KUNIT_ASSERT_EQ_MSG(test, lnet_parse_networks(c->str, &nets, err,
						      sizeof(err)), 0,
			    "%s", err);
	KUNIT_EXPECT_STREQ(test, err, "");
	list_for_each_entry(nc, &nets, list) {
		if (++n > c->n)
			break;
		KUNIT_EXPECT_EQ(test, nc->net_id, w->net);
		for (i = 0; i < ARRAY_SIZE(w->ifaces) && w->ifaces[i]; i++)
			;
		KUNIT_EXPECT_EQ(test, nc->n_ifaces, i);
		for (i = 0; i < nc->n_ifaces && i < ARRAY_SIZE(w->ifaces); i++)
			KUNIT_EXPECT_STREQ(test, nc->ifaces[i], w->ifaces[i]);
		KUNIT_EXPECT_EQ(test, nc->n_cpts, w->ncpts);
		for (i = 0; i < nc->n_cpts && i < w->ncpts; i++)
			KUNIT_EXPECT_EQ(test, nc->cpts[i], w->cpts[i]);
		w++;
	}
	KUNIT_EXPECT_EQ(test, n, c->n);
	lnet_free_net_configs(&nets);
	KUNIT_EXPECT_TRUE(test, list_empty(&nets));
}

static void config_networks_empty(struct kunit *test)
{
	/* and "" and other blanks: networks_ok_vectors */
	static const char * const empty[] = { NULL, " " };
	char err[ERRLEN];
	LIST_HEAD(nets);
	int i;

	for (i = 0; i < ARRAY_SIZE(empty); i++) {
		strscpy(err, "x", sizeof(err));
		KUNIT_EXPECT_EQ(test, lnet_parse_networks(empty[i], &nets, err,
							  sizeof(err)), 0);
		KUNIT_EXPECT_TRUE(test, list_empty(&nets));
		KUNIT_EXPECT_STREQ(test, err, "");
	}
}

static void networks_bad_desc(const struct networks_bad_vector *c, char *desc)
{
	str_desc(c->str, desc);
}

KUNIT_ARRAY_PARAM(networks_bad, networks_bad_vectors, networks_bad_desc);

static void config_networks_invalid(struct kunit *test)
{
	const struct networks_bad_vector *c = test->param_value;
	char err[ERRLEN] = "";
	LIST_HEAD(nets);

	KUNIT_EXPECT_EQ(test, lnet_parse_networks(c->str, &nets, err,
						  sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, c->msg);
	KUNIT_EXPECT_TRUE(test, list_empty(&nets));
	lnet_free_net_configs(&nets);
}

/* Builds "tcp(e0,e1,...)" with @n interfaces. */
static char *ifaces_str(struct kunit *test, int n)
{
	size_t len = 16 + n * 8;
	char *s = kunit_kzalloc(test, len, GFP_KERNEL);
	size_t pos;
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	pos = scnprintf(s, len, "tcp(");
	for (i = 0; i < n; i++)
		pos += scnprintf(s + pos, len - pos, "%se%d", i ? "," : "", i);
	scnprintf(s + pos, len - pos, ")");
	return s;
}

static void config_networks_iface_limit(struct kunit *test)
{
	struct lnet_net_config *nc;
	char err[ERRLEN];
	LIST_HEAD(nets);
	int i;

	KUNIT_ASSERT_EQ(test,
			lnet_parse_networks(ifaces_str(test, LNET_MAX_NET_IFACES),
					    &nets, err, sizeof(err)), 0);
	nc = list_first_entry(&nets, struct lnet_net_config, list);
	KUNIT_EXPECT_EQ(test, nc->n_ifaces, LNET_MAX_NET_IFACES);
	for (i = 0; i < nc->n_ifaces; i++)
		KUNIT_EXPECT_EQ(test, nc->ifaces[i][0], 'e');
	KUNIT_EXPECT_STREQ(test, nc->ifaces[LNET_MAX_NET_IFACES - 1], "e15");
	lnet_free_net_configs(&nets);

	KUNIT_EXPECT_EQ(test,
			lnet_parse_networks(ifaces_str(test,
						       LNET_MAX_NET_IFACES + 1),
					    &nets, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, strstr(err, "more than 16 interfaces"));
	KUNIT_EXPECT_TRUE(test, list_empty(&nets));
}

static void config_networks_cpt_limit(struct kunit *test)
{
	struct lnet_net_config *nc;
	char err[ERRLEN];
	LIST_HEAD(nets);
	int i;

	KUNIT_ASSERT_EQ(test, lnet_parse_networks("tcp[0-63]", &nets, err,
						  sizeof(err)), 0);
	nc = list_first_entry(&nets, struct lnet_net_config, list);
	KUNIT_EXPECT_EQ(test, nc->n_cpts, LNET_MAX_CONFIG_CPTS);
	for (i = 0; i < nc->n_cpts; i++)
		KUNIT_EXPECT_EQ(test, nc->cpts[i], i);
	lnet_free_net_configs(&nets);
	/* one more is an error: networks_bad_vectors */
}

/* A failed parse leaves the caller's list as it was; success appends. */
static void config_networks_list_handling(struct kunit *test)
{
	struct lnet_net_config *nc;
	char err[ERRLEN];
	LIST_HEAD(nets);

	KUNIT_ASSERT_EQ(test, lnet_parse_networks("o2ib5", &nets, err,
						  sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, lnet_parse_networks("tcp(eth0),o2ib1(ib0)[0],x",
						  &nets, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&nets));
	KUNIT_EXPECT_EQ(test, lnet_parse_networks("tcp,tcp1", &nets, err,
						  sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&nets), 3);
	nc = list_last_entry(&nets, struct lnet_net_config, list);
	KUNIT_EXPECT_EQ(test, nc->net_id, VEC_TCP(1));
	nc = list_first_entry(&nets, struct lnet_net_config, list);
	KUNIT_EXPECT_EQ(test, nc->net_id, VEC_O2IB(5));
	lnet_free_net_configs(&nets);
	KUNIT_EXPECT_TRUE(test, list_empty(&nets));
	lnet_free_net_configs(&nets);
}

/* Messages are cut to @errlen and always terminated; no buffer is fine. */
static void config_error_buffer(struct kunit *test)
{
	char err[16];
	LIST_HEAD(list);

	memset(err, 0x5a, sizeof(err));
	KUNIT_EXPECT_EQ(test, lnet_parse_networks("bad", &list, err, 12),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "networks: u");
	KUNIT_EXPECT_EQ(test, err[12], 0x5a);

	memset(err, 0x5a, sizeof(err));
	KUNIT_EXPECT_EQ(test, lnet_parse_routes("bad 1.2.3.4", &list, err, 5),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "rout");
	KUNIT_EXPECT_EQ(test, err[5], 0x5a);

	memset(err, 0x5a, sizeof(err));
	KUNIT_EXPECT_EQ(test, lnet_parse_networks("tcp(", &list, err, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, err[0], '\0');
	KUNIT_EXPECT_EQ(test, err[1], 0x5a);

	KUNIT_EXPECT_EQ(test, lnet_parse_networks("bad", &list, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_parse_routes("bad", &list, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_parse_networks("tcp", &list, NULL, 0), 0);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&list));
	lnet_free_net_configs(&list);
}

#define GW(net, addr)	LNET_MKNID(net, addr)

struct route_want {
	u32		net;
	u32		hops;
	u32		prio;
	lnet_nid_t	gw;
};

struct routes_ok {
	const char		*str;
	int			n;
	struct route_want	routes[6];
};

static const struct routes_ok routes_ok[] = {
	{ "o2ib1 192.0.2.1@tcp", 1,
	  { { VEC_O2IB(1), 0, 0, GW(VEC_TCP(0), 0xc0000201) } } },
	{ "tcp2 1 10.0.0.[1-4]@o2ib:2", 4,
	  { { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000001) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000002) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000003) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000004) } } },
	{ "o2ib1 192.0.2.1@tcp; tcp2 1 10.0.0.[1-4]@o2ib:2", 5,
	  { { VEC_O2IB(1), 0, 0, GW(VEC_TCP(0), 0xc0000201) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000001) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000002) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000003) },
	    { VEC_TCP(2), 1, 2, GW(VEC_O2IB(0), 0x0a000004) } } },
	{ "o2ib1 3 192.0.2.1@tcp:5 192.0.2.2@tcp", 2,
	  { { VEC_O2IB(1), 3, 5, GW(VEC_TCP(0), 0xc0000201) },
	    { VEC_O2IB(1), 3, 0, GW(VEC_TCP(0), 0xc0000202) } } },
	{ "  o2ib1\t 192.0.2.1@tcp  ;  ;\n ", 1,
	  { { VEC_O2IB(1), 0, 0, GW(VEC_TCP(0), 0xc0000201) } } },
	{ "o2ib1 10.0.0.[1,3,5-6]@tcp1", 4,
	  { { VEC_O2IB(1), 0, 0, GW(VEC_TCP(1), 0x0a000001) },
	    { VEC_O2IB(1), 0, 0, GW(VEC_TCP(1), 0x0a000003) },
	    { VEC_O2IB(1), 0, 0, GW(VEC_TCP(1), 0x0a000005) },
	    { VEC_O2IB(1), 0, 0, GW(VEC_TCP(1), 0x0a000006) } } },
	{ "o2ib1 192.0.2.1", 1,
	  { { VEC_O2IB(1), 0, 0, GW(VEC_TCP(0), 0xc0000201) } } },
	{ "o2ib1 255 192.0.2.[0]@tcp:0", 1,
	  { { VEC_O2IB(1), 255, 0, GW(VEC_TCP(0), 0xc0000200) } } },
	{ "tcp1 192.0.2.[255]:4294967295", 1,
	  { { VEC_TCP(1), 0, 4294967295U, GW(VEC_TCP(0), 0xc00002ff) } } },
	{ "o2ib1 192.0.2.1@tcp;o2ib2 192.0.2.1@tcp;tcp 1 10.0.0.1@o2ib", 3,
	  { { VEC_O2IB(1), 0, 0, GW(VEC_TCP(0), 0xc0000201) },
	    { VEC_O2IB(2), 0, 0, GW(VEC_TCP(0), 0xc0000201) },
	    { VEC_TCP(0), 1, 0, GW(VEC_O2IB(0), 0x0a000001) } } },
};

static void routes_ok_desc(const struct routes_ok *c, char *desc)
{
	str_desc(c->str, desc);
}

KUNIT_ARRAY_PARAM(routes_ok, routes_ok, routes_ok_desc);

static void config_routes_valid(struct kunit *test)
{
	const struct routes_ok *c = test->param_value;
	const struct route_want *w = c->routes;
	struct lnet_route_config *rc;
	char err[ERRLEN] = "x";
	LIST_HEAD(routes);
	int n = 0;

	KUNIT_ASSERT_EQ_MSG(test, lnet_parse_routes(c->str, &routes, err,
						    sizeof(err)), 0,
			    "%s", err);
	KUNIT_EXPECT_STREQ(test, err, "");
	list_for_each_entry(rc, &routes, list) {
		if (++n > c->n)
			break;
		KUNIT_EXPECT_EQ_MSG(test, rc->net_id, w->net, "route %d", n);
		KUNIT_EXPECT_EQ_MSG(test, rc->hops, w->hops, "route %d", n);
		KUNIT_EXPECT_EQ_MSG(test, rc->priority, w->prio, "route %d", n);
		KUNIT_EXPECT_EQ_MSG(test, rc->gateway, w->gw, "route %d", n);
		w++;
	}
	KUNIT_EXPECT_EQ(test, n, c->n);
	lnet_free_route_configs(&routes);
}

static void config_routes_empty(struct kunit *test)
{
	static const char * const empty[] = { NULL, "", "  ", ";", " ; ;\t" };
	char err[ERRLEN];
	LIST_HEAD(routes);
	int i;

	for (i = 0; i < ARRAY_SIZE(empty); i++) {
		KUNIT_EXPECT_EQ(test, lnet_parse_routes(empty[i], &routes, err,
							sizeof(err)), 0);
		KUNIT_EXPECT_TRUE(test, list_empty(&routes));
	}
}

/* Bad input and the exact message, offsets counted from the start. */
struct config_bad {
	const char	*str;
	const char	*msg;
};

static void config_bad_desc(const struct config_bad *c, char *desc)
{
	str_desc(c->str, desc);
}

static const struct config_bad routes_bad[] = {
	{ "o2ib1", "routes: no gateway at offset 5" },
	{ "o2ib1 2", "routes: no gateway at offset 7" },
	{ "o2ib1; tcp1 1.2.3.4", "routes: no gateway at offset 5" },
	{ "tcp1 1.2.3.4;o2ib1 ", "routes: no gateway at offset 19" },
	{ "bogus 192.0.2.1@tcp", "routes: unknown network 'bogus' at offset 0" },
	{ "<?> 192.0.2.1@tcp", "routes: unknown network '<?>' at offset 0" },
	{ "192.0.2.1@tcp", "routes: unknown network '192.0.2.1@tcp' at offset 0" },
	{ "lo 192.0.2.1@tcp", "routes: cannot route to network 'lo' at offset 0" },
	{ "o2ib1 0 192.0.2.1@tcp", "routes: hop count '0' not in 1..255 at offset 6" },
	{ "o2ib1 256 192.0.2.1@tcp", "routes: hop count '256' not in 1..255 at offset 6" },
	{ "o2ib1 99999999999 192.0.2.1@tcp", "routes: hop count '99999999999' not in 1..255 at offset 6" },
	{ "o2ib1 -1 192.0.2.1@tcp", "routes: bad gateway '-1' at offset 6" },
	{ "o2ib1 192.0.2.1@tcp 3", "routes: bad gateway '3' at offset 20" },
	{ "tcp 192.0.2.1@tcp", "routes: gateway '192.0.2.1@tcp' is on the target network at offset 4" },
	{ "tcp0 192.0.2.1", "routes: gateway '192.0.2.1' is on the target network at offset 5" },
	{ "o2ib1 10.0.0.[1-2]@o2ib1", "routes: gateway '10.0.0.[1-2]@o2ib1' is on the target network at offset 6" },
	{ "o2ib1 0@lo", "routes: gateway '0@lo' is a loopback NID at offset 6" },
	{ "o2ib1 192.0.2.1@tcp:", "routes: bad priority '' at offset 20" },
	{ "o2ib1 192.0.2.1@tcp:x", "routes: bad priority 'x' at offset 20" },
	{ "o2ib1 192.0.2.1@tcp:-1", "routes: bad priority '-1' at offset 20" },
	{ "o2ib1 192.0.2.1@tcp:1:2", "routes: bad gateway '192.0.2.1@tcp:1' at offset 6" },
	{ "o2ib1 192.0.2.1@tcp:4294967296", "routes: bad priority '4294967296' at offset 20" },
	{ "o2ib1 192.0.2.256@tcp", "routes: bad gateway '192.0.2.256@tcp' at offset 6" },
	{ "o2ib1 192.0.2.1@tccp", "routes: bad gateway '192.0.2.1@tccp' at offset 6" },
	{ "o2ib1 <?>", "routes: bad gateway '<?>' at offset 6" },
	{ "o2ib1 192.0.2.1@tcp 192.0.2.1@tcp", "routes: duplicate route via '192.0.2.1@tcp' at offset 20" },
	{ "o2ib1 192.0.2.1@tcp; o2ib1 192.0.2.1@tcp0", "routes: duplicate route via '192.0.2.1@tcp0' at offset 27" },
	{ "o2ib1 192.0.2.[1-3]@tcp 192.0.2.2@tcp", "routes: duplicate route via '192.0.2.2@tcp' at offset 24" },
	{ "o2ib1 192.0.2.[1,1]@tcp", "routes: duplicate route via '192.0.2.[1,1]@tcp' at offset 6" },
	{ "o2ib1 192.0.2.[1-4@tcp", "routes: unbalanced '[' at offset 14" },
	{ "o2ib1 192.0.2.1-4]@tcp", "routes: unbalanced ']' at offset 17" },
	{ "o2ib1 192.0.2.[[1]]@tcp", "routes: unbalanced '[' at offset 15" },
	{ "o2ib1 192.0.2.[1]]@tcp", "routes: unbalanced ']' at offset 17" },
	{ "o2ib1 192.0.[1-2].3@tcp", "routes: a range is only allowed as the last octet of an IPv4 address at offset 12" },
	{ "o2ib1 192.0.2.[1-2]x@tcp", "routes: a range is only allowed as the last octet of an IPv4 address at offset 14" },
	{ "o2ib1 192.0.2.1[1-2]@tcp", "routes: a range is only allowed as the last octet of an IPv4 address at offset 15" },
	{ "o2ib1 [1-2]@gni", "routes: a range is only allowed as the last octet of an IPv4 address at offset 6" },
	{ "o2ib1 192.0.2.[4-1]@tcp", "routes: bad octet range in gateway '192.0.2.[4-1]@tcp' at offset 15" },
	{ "o2ib1 192.0.2.[1-256]@tcp", "routes: bad octet range in gateway '192.0.2.[1-256]@tcp' at offset 15" },
	{ "o2ib1 192.0.2.[]@tcp", "routes: bad octet range in gateway '192.0.2.[]@tcp' at offset 15" },
	{ "o2ib1 192.0.2.[1,]@tcp", "routes: bad octet range in gateway '192.0.2.[1,]@tcp' at offset 17" },
	{ "o2ib1 192.0.2.[a]@tcp", "routes: bad octet range in gateway '192.0.2.[a]@tcp' at offset 15" },
	{ "o2ib1 192.0.2.[1;2]@tcp", "routes: unbalanced '[' at offset 14" },
	{ "o2ib1 1.2.3.[1-2]@gni", "routes: bad gateway '1.2.3.[1-2]@gni' at offset 6" },
	{ "o2ib1 1.2.3.[1]@lo", "routes: bad gateway '1.2.3.[1]@lo' at offset 6" },
	{ "o2ib1 192.0.300.[1]@tcp", "routes: bad gateway '192.0.300.[1]@tcp' at offset 6" },
	{ "o2ib1 192.0.2.[1]@tcp65536", "routes: bad gateway '192.0.2.[1]@tcp65536' at offset 6" },
};

KUNIT_ARRAY_PARAM(routes_bad, routes_bad, config_bad_desc);

static void config_routes_invalid(struct kunit *test)
{
	const struct config_bad *c = test->param_value;
	char err[ERRLEN] = "";
	LIST_HEAD(routes);

	KUNIT_EXPECT_EQ(test, lnet_parse_routes(c->str, &routes, err,
						sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, c->msg);
	KUNIT_EXPECT_TRUE(test, list_empty(&routes));
	lnet_free_route_configs(&routes);
}

static void config_routes_range_expansion(struct kunit *test)
{
	struct lnet_route_config *rc;
	char err[ERRLEN];
	LIST_HEAD(routes);
	u32 addr = 0x0a000000;

	KUNIT_ASSERT_EQ_MSG(test,
			    lnet_parse_routes("o2ib3 7 10.0.0.[0-255]@tcp2:9",
					      &routes, err, sizeof(err)), 0,
			    "%s", err);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&routes), 256);
	list_for_each_entry(rc, &routes, list) {
		KUNIT_EXPECT_EQ(test, rc->net_id, VEC_O2IB(3));
		KUNIT_EXPECT_EQ(test, rc->hops, 7);
		KUNIT_EXPECT_EQ(test, rc->priority, 9);
		KUNIT_EXPECT_EQ(test, rc->gateway, GW(VEC_TCP(2), addr));
		addr++;
	}
	lnet_free_route_configs(&routes);
}

/* At most 256 gateways per entry, however they are spelled. */
static void config_routes_gateway_cap(struct kunit *test)
{
	char err[ERRLEN];
	LIST_HEAD(routes);

	KUNIT_EXPECT_EQ(test,
			lnet_parse_routes("o2ib1 10.0.0.[0-127]@tcp 10.0.1.[0-127]@tcp",
					  &routes, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&routes), 256);
	lnet_free_route_configs(&routes);

	KUNIT_EXPECT_EQ(test,
			lnet_parse_routes("o2ib1 10.0.0.[0-255]@tcp 10.0.1.1@tcp",
					  &routes, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err,
			   "routes: more than 256 gateways in one entry at offset 25");
	KUNIT_EXPECT_TRUE(test, list_empty(&routes));

	/* The cap is per entry: two full entries are fine. */
	KUNIT_EXPECT_EQ(test,
			lnet_parse_routes("o2ib1 10.0.0.[0-255]@tcp; o2ib2 10.0.0.[0-255]@tcp",
					  &routes, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&routes), 512);
	lnet_free_route_configs(&routes);
}

static void config_routes_list_handling(struct kunit *test)
{
	struct lnet_route_config *rc;
	char err[ERRLEN];
	LIST_HEAD(routes);

	KUNIT_ASSERT_EQ(test, lnet_parse_routes("o2ib1 192.0.2.1@tcp", &routes,
						err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, lnet_parse_routes("o2ib2 192.0.2.[1-9]@tcp; x",
						&routes, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&routes));
	KUNIT_EXPECT_EQ(test, lnet_parse_routes("o2ib2 192.0.2.2@tcp", &routes,
						err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&routes), 2);
	rc = list_last_entry(&routes, struct lnet_route_config, list);
	KUNIT_EXPECT_EQ(test, rc->net_id, VEC_O2IB(2));
	lnet_free_route_configs(&routes);
	KUNIT_EXPECT_TRUE(test, list_empty(&routes));
}

static struct kunit_case config_cases[] = {
	KUNIT_CASE_PARAM(config_networks_valid, networks_ok_gen_params),
	KUNIT_CASE(config_networks_empty),
	KUNIT_CASE_PARAM(config_networks_invalid, networks_bad_gen_params),
	KUNIT_CASE(config_networks_iface_limit),
	KUNIT_CASE(config_networks_cpt_limit),
	KUNIT_CASE(config_networks_list_handling),
	KUNIT_CASE(config_error_buffer),
	KUNIT_CASE_PARAM(config_routes_valid, routes_ok_gen_params),
	KUNIT_CASE(config_routes_empty),
	KUNIT_CASE_PARAM(config_routes_invalid, routes_bad_gen_params),
	KUNIT_CASE(config_routes_range_expansion),
	KUNIT_CASE(config_routes_gateway_cap),
	KUNIT_CASE(config_routes_list_handling),
	{}
};

static struct kunit_suite config_suite = {
	.name = "lnet_config",
	.test_cases = config_cases,
};

kunit_test_suite(config_suite);
