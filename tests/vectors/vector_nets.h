/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shorthands for the nets the vector tables name most; the includer
 * provides LNET_MKNET() and LNET_LND_* (the UAPI lnet-nid.h).
 */
#ifndef LNET_TESTS_VECTOR_NETS_H
#define LNET_TESTS_VECTOR_NETS_H

#define VEC_TCP(num)	LNET_MKNET(LNET_LND_SOCK, num)
#define VEC_O2IB(num)	LNET_MKNET(LNET_LND_O2IB, num)

#endif /* LNET_TESTS_VECTOR_NETS_H */
