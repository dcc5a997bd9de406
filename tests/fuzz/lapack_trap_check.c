/* Checks that lapack_trap.c's handlers replace the libraries' printing ones in an executable linked
 * like the fuzz targets: an illegal argument to a Fortran LAPACK routine (DGESV with N = -1) and to a
 * LAPACKE routine (an unknown matrix layout) must each reach our abort, seen here as SIGABRT. The
 * ctest fuzz_lapack_trap passes on the printed "trapped" lines, one per case. */
#include <lapacke.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
            int *info);

static void fortran_case(void)
{
    int n = -1, one = 1, ipiv[1], info = 0;
    double a[1] = {1}, b[1] = {1};
    dgesv_(&n, &one, a, &one, ipiv, b, &one, &info);
}

static void lapacke_case(void)
{
    double a[1] = {1}, b[1] = {1};
    lapack_int ipiv[1];
    LAPACKE_dgesv(12345, 1, 1, a, 1, ipiv, b, 1);
}

/* runs one case in a child: 1 if it ended by SIGABRT (the trap), 0 if it returned */
static int trapped(void (*run)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        run();
        _exit(0);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

int main(void)
{
    int ok = 1;
    if (trapped(fortran_case)) printf("trapped: DGESV\n"); else ok = 0;
    if (trapped(lapacke_case)) printf("trapped: LAPACKE_dgesv\n"); else ok = 0;
    return ok ? 0 : 1;
}
