/* Private building blocks of the structural analysis (one file each). */
#ifndef NSDAE_STRUCTURAL_INTERNAL_H
#define NSDAE_STRUCTURAL_INTERNAL_H

#include <nsdae/structural.h>

/* A bipartite graph rows x cols in compressed-row form: the columns of row i are
 * col[ptr[i] .. ptr[i+1]-1]. */
typedef struct nsdae_bigraph {
    int nrows, ncols;
    int *ptr, *col;
} nsdae_bigraph;

/* Maximum-cardinality matching by augmenting paths (Kuhn; O(V E), ample for model sizes).
 * match_row[i] = column of row i or -1, match_col[j] = row of column j or -1. Columns of a row are
 * tried in the order of the graph, so callers express preferences by sorting rows' columns.
 * Returns the matching size, or -1 when out of memory. */
int nsdae_structural_max_matching(const nsdae_bigraph *g, int *match_row, int *match_col);

/* Highest-value transversal of an n x n signature matrix (row-major sig, NSDAE_SIGMA_NONE for
 * missing entries): a maximum-weight perfect matching by the Hungarian method on integers.
 * Precondition: a perfect matching on the finite entries exists. assign[i] = column of row i.
 * Returns 0, or -1 when out of memory. */
int nsdae_structural_hvt(int n, const int *sig, int *assign);

/* Canonical (smallest) Pryce offsets from a HVT by the fixed-point iteration (Pryce 2001).
 * Returns 0, or -1 if the iteration did not settle (impossible for a true HVT). */
int nsdae_structural_offsets(int n, const int *sig, const int *assign, int *c, int *d);

/* Coarse Dulmage-Mendelsohn parts from a maximum matching (Benveniste et al. 2017, section 3.1). Returns
 * 0, or -1 when out of memory. */
int nsdae_structural_dm_parts(const nsdae_bigraph *g, const int *match_row, const int *match_col,
                              nsdae_dm_part *row_part, nsdae_dm_part *col_part);

/* Block-triangular form of a square graph with a perfect matching (match_row: row -> column):
 * Tarjan's strongly connected components of the graph "row i uses the column matched to row k",
 * ordered so that a block comes after the blocks it uses, level by level, ties by smallest row.
 * Fills *blocks (n rows/cols of the local numbering) and returns the count, or -1 (memory). */
int nsdae_structural_btf(const nsdae_bigraph *g, const int *match_row, nsdae_structural_block **blocks);

/* Mattsson-Soderlind dummy-derivative selection on the analysed part of r (fills dummies,
 * dummy_level, selected). weight: NULL, or neq x nvar column-major magnitudes preferring the largest
 * pivots. Returns NSDAE_OK or an error (memory, or a level without a matching: a bug). */
nsdae_status nsdae_structural_select_states(nsdae_structural_result *r, const nsdae_sigma *sigma, const double *weight,
                                            nsdae_error *err);

#endif
