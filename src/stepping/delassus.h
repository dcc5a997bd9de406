/* The Delassus matrix W = G_a M^-1 G_a^T of a set of contacts and the velocity jump M^-1 G_a^T P_a,
 * from G in compressed rows (contact_rows.h) and M's factor (mass_factor.h), at the cost of the
 * nonzeros: Moreau-Jean's step and the event-driven engine's impacts share it. */
#ifndef NSDAE_STEPPING_DELASSUS_H
#define NSDAE_STEPPING_DELASSUS_H

#include "stepping/contact_rows.h"
#include "stepping/mass_factor.h"

/* W (m x m, column-major, overwritten) over the m contacts idx[0 .. m); pos[c] is contact c's
 * position in idx, -1 for the others. A diagonal M (f->kd == 0): W_ab = sum_j G_aj G_bj / m_jj over
 * the columns the rows share, through G's column index, O(those products) and X is not used
 * (may be NULL); otherwise X (n x m) receives M^-1 G_a^T column by column, O(m x solve), and
 * W = G_a X, O(m x nnz(G_a)). */
void delassus_form(const contact_rows *G, const mass_factor *f, const int *idx, const int *pos, int m, double *X,
                   double *W);

/* v += M^-1 G_a^T P (m percussions), X as delassus_form left it. */
void delassus_apply(const contact_rows *G, const mass_factor *f, const int *idx, int m, const double *X,
                    const double *P, double *v);

#endif
