// SPDX-License-Identifier: GPL-2.0
/* The tracepoints of ksocklnd.ko are instantiated here. */
#define CREATE_TRACE_POINTS
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "socklnd_trace.h"
