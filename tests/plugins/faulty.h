/*
 * faulty.h — what the broken solver plug-ins (faulty.c) and technique plug-ins
 * (faulty_tech.c) share: the ABI version and the geometry each fault declares.
 */
#ifndef SB_TEST_FAULTY_H
#define SB_TEST_FAULTY_H

#include <sudokubench_plugin.h>

/* FAULT_ABI: a version that does not exist. */
#ifdef FAULT_ABI
#define FAULTY_ABI (SB_PLUGIN_ABI + 1000)
#else
#define FAULTY_ABI SB_PLUGIN_ABI
#endif

/* FAULT_GEOMETRY: 16x16 boxed grids only (so 9x9 is refused). */
#ifdef FAULT_GEOMETRY
static int accepts_16(const sb_plugin_geometry *g)
{
    return g->digits == 16 && g->box_rows == 4;
}
#define ACCEPTS accepts_16
#else
#define ACCEPTS NULL
#endif

#endif /* SB_TEST_FAULTY_H */
