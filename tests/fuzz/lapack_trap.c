/* LAPACK and BLAS report an illegal argument by calling an error handler that prints (Fortran
 * XERBLA: "** On entry to DLASCL parameter number 4 had an illegal value"; LAPACKE_xerbla: "Wrong
 * parameter ..."; cblas_xerbla) and then carry on. A library must never print, and the usual cause is
 * a NaN or Inf that reached the routine, so in the fuzz targets and their replay drivers such a
 * report is a finding: these definitions take precedence over the shared libraries' (an executable's
 * symbols come first in the dynamic lookup; OpenBLAS exports xerbla_ weakly and calls it through the
 * PLT) and abort naming the routine, so libFuzzer saves the input and ctest's replay fails. */
#include <lapacke.h>
#include <lapacke_utils.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Fortran XERBLA(SRNAME, INFO): gfortran passes the name's length as a hidden trailing argument. */
void xerbla_(const char *srname, const int *info, size_t len);
void xerbla_(const char *srname, const int *info, size_t len)
{
    int n = 0;
    while ((size_t)n < len && n < 32 && srname[n] != ' ' && srname[n] != '\0') n++;
    fprintf(stderr, "fuzz: LAPACK/BLAS error report: %.*s parameter %d had an illegal value\n", n, srname,
            info ? *info : 0);
    abort();
}

void LAPACKE_xerbla(const char *name, lapack_int info)
{
    fprintf(stderr, "fuzz: LAPACKE error report: %s returned info %d\n", name ? name : "?", (int)info);
    abort();
}

void cblas_xerbla(int p, const char *rout, const char *form, ...);
void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    fprintf(stderr, "fuzz: CBLAS error report: %s parameter %d had an illegal value\n", rout ? rout : "?", p);
    abort();
}
