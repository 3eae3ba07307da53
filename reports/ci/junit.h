/* SPDX-License-Identifier: ISC */
/*
 * junit.h: the verdicts of gpumem check as JUnit XML, the test report CI
 * systems read (Jenkins, GitLab, the test reporters of GitHub Actions).
 *
 *	<testsuites name="gpumem check" tests="2" failures="1" ...>
 *	  <testsuite name="gpu 0" tests="2" failures="1" ...>
 *	    <testcase classname="gpu 0" name="python3 #1: max_leak_mib"
 *	        time="0">
 *	      <failure message="python3 (pid 4242): max_leak_mib: leaked
 *	          11264 MiB, more than 0 (built-in)" type="max_leak_mib">the
 *	          task's numbers</failure>
 *
 * One testsuite per GPU (named "gpu 0", or "node1:gpu 0" with a host),
 * one testcase per task and gate and per GPU gate.  A task is named by
 * its name and occurrence on its GPU ("python3 #2", the second python3),
 * not by its pid: CI systems follow a test from run to run by its name.  A check that was not
 * judged (a running task, a vanished one) is <skipped>; a passing one
 * says what was found in <system-out>; an input that could not be read is
 * an <error> in a testsuite "input" of its own.  The attributes follow
 * the JUnit schema of Jenkins' xUnit plugin (junit-10.xsd), which
 * tests/data/junit.xsd mirrors; times are 0 (nothing was timed), the
 * timestamp is the start of the recording (UTC).
 */
#ifndef GPUMEM_JUNIT_H
#define GPUMEM_JUNIT_H

#include <stdio.h>

#include "gates.h"

/* Write the report to f.  Return 0, or -1 on a write error. */
int junit_write(FILE *f, const struct verdicts *vs);

#endif
