/*
 * testutil — what every cmocka test file includes: the cmocka headers in
 * the order cmocka needs, and TOP (the repository root) for test data.
 */
#ifndef FRONTS_TESTUTIL_H
#define FRONTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#endif
