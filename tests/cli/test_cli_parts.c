/* Parts of the CLI checked alone: sha256 against the FIPS 180-4 example digests, the progress line's
 * arithmetic, and the run-table reader on our CSV and on a Siconos .ref layout. */
#include "cli/progress.c"
#include "cli/sha256.c"
#include "cli/table.c"

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *digest(const char *text, long repeat)
{
    static char hex[65];
    sha256 s;
    sha256_init(&s);
    for (long i = 0; i < repeat; i++) sha256_update(&s, text, strlen(text));
    sha256_hex(&s, hex);
    return hex;
}

Test(cli_parts, sha256_fips_examples)
{
    cr_expect_str_eq(digest("abc", 1), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    cr_expect_str_eq(digest("", 1), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    cr_expect_str_eq(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1),
                     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    cr_expect_str_eq(digest("a", 1000000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(cli_parts, progress_line)
{
    char buf[160];
    /* 250 of 1000 steps in 2.5 s: 25 %, 100 steps/s, 750 steps left = 7.5 s, shown rounded */
    cr_expect_str_eq(progress_format(buf, sizeof buf, 250, 1000, 2.5, 2.5),
                     " 25.0%  step 250/1000  t = 2.5  100 steps/s  ETA 0:00:08");
    /* 1 of 100000 steps in 1 h: 99999 h left (hours do not wrap); no step yet: no rate, no ETA */
    cr_expect(strstr(progress_format(buf, sizeof buf, 1, 100000, 0.0, 3600.0), "ETA 99999:00:00") != NULL, "%s", buf);
    cr_expect(strstr(progress_format(buf, sizeof buf, 0, 100000, 0.0, 3600.0), "ETA ?") != NULL, "%s", buf);
    cr_expect(strstr(progress_format(buf, sizeof buf, 5000, 10000, 1.0, 3725.0), "ETA 1:02:05") != NULL, "%s", buf);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(cli_parts, tables)
{
    table tb;
    char why[512];
    const char *path = NSDAE_BINARY_DIR "/cli_parts_table.txt";
    write_file(path, "# a comment\nt,x,nsol\n0,1.5,1\n0.5,-2,inf\n");
    cr_assert_eq(table_read(path, &tb, why, sizeof why), 0, "%s", why);
    cr_expect_eq(tb.ncols, 3);
    cr_expect_eq(tb.nrows, 2);
    cr_expect(tb.named);
    cr_expect_eq(table_column(&tb, "x"), 1);
    cr_expect_eq(table_column(&tb, "2"), -1); /* numbers name columns only without a header */
    cr_expect_eq(TABLE_AT(&tb, 1, 1), -2.0);
    cr_expect(isinf(TABLE_AT(&tb, 1, 2)));
    table_free(&tb);

    write_file(path, "3 2\n0 1\n0.5 2\n1 3\n"); /* Siconos' ioMatrix: ROWS COLS, then the rows */
    cr_assert_eq(table_read(path, &tb, why, sizeof why), 0, "%s", why);
    cr_expect_eq(tb.nrows, 3);
    cr_expect_eq(tb.ncols, 2);
    cr_expect_eq(table_column(&tb, "2"), 1);
    cr_expect_eq(TABLE_AT(&tb, 2, 1), 3.0);
    table_free(&tb);

    write_file(path, "0 1 2\n1 2 3\n"); /* no dimension line */
    cr_assert_eq(table_read(path, &tb, why, sizeof why), 0, "%s", why);
    cr_expect_eq(tb.nrows, 2);
    cr_expect_eq(TABLE_AT(&tb, 0, 2), 2.0);
    table_free(&tb);

    write_file(path, "t,x\n0,1\n1\n");
    cr_expect_eq(table_read(path, &tb, why, sizeof why), -1);
    cr_expect(strstr(why, ":3: 1 values, expected 2") != NULL, "%s", why);
    write_file(path, "t,x\n");
    cr_expect_eq(table_read(path, &tb, why, sizeof why), -1);
    cr_expect(strstr(why, "no rows") != NULL, "%s", why);
}
