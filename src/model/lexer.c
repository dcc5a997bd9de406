/* The .nsm lexer: identifiers, keywords, numbers, punctuation, // and nested-free block comments. */
#include "model/lexer.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *text;
    tok_kind kind;
} keywords[] = {
    {"model", T_MODEL}, {"end", T_END}, {"parameter", T_PARAMETER}, {"var", T_VAR},
    {"equation", T_EQUATION}, {"if", T_IF}, {"then", T_THEN}, {"elseif", T_ELSEIF}, {"else", T_ELSE},
    {"when", T_WHEN}, {"der", T_DER}, {"time", T_TIME}, {"in", T_IN}, {"restitution", T_RESTITUTION},
    {"experiment", T_EXPERIMENT}, {"and", T_AND}, {"or", T_OR}, {"not", T_NOT}, {"for", T_FOR},
    {"loop", T_LOOP},
};

const char *nsdae_tok_name(tok_kind kind)
{
    static const char *names[] = {
        [T_EOF] = "end of file", [T_IDENT] = "a name", [T_NUMBER] = "a number",
        [T_MODEL] = "'model'", [T_END] = "'end'", [T_PARAMETER] = "'parameter'", [T_VAR] = "'var'",
        [T_EQUATION] = "'equation'", [T_IF] = "'if'", [T_THEN] = "'then'", [T_ELSEIF] = "'elseif'",
        [T_ELSE] = "'else'", [T_WHEN] = "'when'", [T_DER] = "'der'", [T_TIME] = "'time'", [T_IN] = "'in'",
        [T_RESTITUTION] = "'restitution'", [T_EXPERIMENT] = "'experiment'", [T_AND] = "'and'",
        [T_OR] = "'or'", [T_NOT] = "'not'", [T_LPAREN] = "'('", [T_RPAREN] = "')'", [T_LBRACKET] = "'['",
        [T_RBRACKET] = "']'", [T_COMMA] = "','", [T_SEMI] = "';'", [T_ASSIGN] = "'='", [T_PLUS] = "'+'",
        [T_MINUS] = "'-'", [T_STAR] = "'*'", [T_SLASH] = "'/'", [T_CARET] = "'^'", [T_LT] = "'<'",
        [T_GT] = "'>'", [T_LE] = "'<='", [T_GE] = "'>='", [T_PERP] = "'_|_'", [T_FOR] = "'for'",
        [T_LOOP] = "'loop'", [T_LBRACE] = "'{'", [T_RBRACE] = "'}'", [T_COLON] = "':'",
    };
    return (unsigned)kind < sizeof names / sizeof names[0] && names[kind] ? names[kind] : "a token";
}

static nsdae_status push(token_list *l, token t, nsdae_error *err)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        token *v = realloc(l->v, cap * sizeof *v);
        if (!v) return nsdae_error_set(err, NSDAE_NOMEM, "lexer: out of memory");
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = t;
    return NSDAE_OK;
}

void nsdae_tokens_free(token_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* Length of a number literal at s (digits [. digits] [e[+-]digits], or . digits), 0 if none.
 * *bad is set when an exponent marker has no digits. */
static size_t number_length(const char *s, size_t avail, int *bad)
{
    size_t i = 0, digits = 0;
    *bad = 0;
    while (i < avail && isdigit((unsigned char)s[i])) i++, digits++;
    if (i < avail && s[i] == '.') {
        i++;
        while (i < avail && isdigit((unsigned char)s[i])) i++, digits++;
    }
    if (digits == 0) return 0;
    if (i < avail && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < avail && (s[j] == '+' || s[j] == '-')) j++;
        size_t e0 = j;
        while (j < avail && isdigit((unsigned char)s[j])) j++;
        if (j == e0) *bad = 1;
        i = j;
    }
    return i;
}

nsdae_status nsdae_lex(const char *src, size_t n, const char *file, token_list *out, nsdae_error *err)
{
    memset(out, 0, sizeof *out);
    if (n > NSDAE_MODEL_MAX_BYTES)
        return nsdae_error_set(err, NSDAE_PARSE, "%s:1:1: model text too long (%zu bytes, limit %zu)", file, n,
                               NSDAE_MODEL_MAX_BYTES);
    size_t i = 0;
    int line = 1, col = 1;
#define FAIL(l, c, ...)                                                                \
    do {                                                                               \
        nsdae_tokens_free(out);                                                        \
        char m_[300];                                                                  \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                          \
        return nsdae_error_set(err, NSDAE_PARSE, "%s:%d:%d: %s", file, (l), (c), m_); \
    } while (0)
    while (i < n) {
        char ch = src[i];
        if (ch == '\n') { i++; line++; col = 1; continue; }
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') { i++; col++; continue; }
        if (ch == '/' && i + 1 < n && src[i + 1] == '/') {
            while (i < n && src[i] != '\n') i++;
            continue;
        }
        if (ch == '/' && i + 1 < n && src[i + 1] == '*') {
            int l0 = line, c0 = col;
            i += 2; col += 2;
            while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) {
                if (src[i] == '\n') { line++; col = 1; } else col++;
                i++;
            }
            if (i >= n) FAIL(l0, c0, "unterminated comment: expected '*/' before end of file");
            i += 2; col += 2;
            continue;
        }
        token t = {T_EOF, line, col, i, 1, 0.0};
        if (ch == '_' && i + 2 < n && src[i + 1] == '|' && src[i + 2] == '_') {
            t.kind = T_PERP;
            t.len = 3;
        } else if (isalpha((unsigned char)ch) || ch == '_') {
            size_t j = i;
            while (j < n && (isalnum((unsigned char)src[j]) || src[j] == '_')) j++;
            t.len = j - i;
            if (t.len > NSDAE_MODEL_MAX_IDENT)
                FAIL(line, col, "identifier too long (%zu characters, limit %d)", t.len, NSDAE_MODEL_MAX_IDENT);
            t.kind = T_IDENT;
            for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
                if (strlen(keywords[k].text) == t.len && memcmp(keywords[k].text, src + i, t.len) == 0)
                    t.kind = keywords[k].kind;
        } else if (isdigit((unsigned char)ch) || (ch == '.' && i + 1 < n && isdigit((unsigned char)src[i + 1]))) {
            int bad;
            t.len = number_length(src + i, n - i, &bad);
            if (bad) FAIL(line, col, "malformed number: expected digits after the exponent");
            if (t.len > 64) FAIL(line, col, "number literal too long");
            char buf[72];
            memcpy(buf, src + i, t.len);
            buf[t.len] = '\0';
            t.number = strtod(buf, NULL);
            if (!isfinite(t.number)) FAIL(line, col, "number '%s' out of range", buf);
            if (i + t.len < n && (isalpha((unsigned char)src[i + t.len]) || src[i + t.len] == '_'))
                FAIL(line, col + (int)t.len, "unexpected character '%c' after a number", src[i + t.len]);
            t.kind = T_NUMBER;
        } else {
            char c1 = i + 1 < n ? src[i + 1] : '\0';
            switch (ch) {
            case '(': t.kind = T_LPAREN; break;
            case ')': t.kind = T_RPAREN; break;
            case '[': t.kind = T_LBRACKET; break;
            case ']': t.kind = T_RBRACKET; break;
            case '{': t.kind = T_LBRACE; break;
            case '}': t.kind = T_RBRACE; break;
            case ':': t.kind = T_COLON; break;
            case ',': t.kind = T_COMMA; break;
            case ';': t.kind = T_SEMI; break;
            case '=': t.kind = T_ASSIGN; break;
            case '+': t.kind = T_PLUS; break;
            case '-': t.kind = T_MINUS; break;
            case '*': t.kind = T_STAR; break;
            case '/': t.kind = T_SLASH; break;
            case '^': t.kind = T_CARET; break;
            case '<': t.kind = c1 == '=' ? T_LE : T_LT; t.len = c1 == '=' ? 2 : 1; break;
            case '>': t.kind = c1 == '=' ? T_GE : T_GT; t.len = c1 == '=' ? 2 : 1; break;
            default:
                if (ch == '\0') FAIL(line, col, "unexpected NUL byte");
                if ((unsigned char)ch < 32 || (unsigned char)ch >= 127)
                    FAIL(line, col, "unexpected byte 0x%02x", (unsigned)(unsigned char)ch);
                FAIL(line, col, "unexpected character '%c'", ch);
            }
        }
        nsdae_status st = push(out, t, err);
        if (st) { nsdae_tokens_free(out); return st; }
        i += t.len;
        col += (int)t.len;
    }
    token eof = {T_EOF, line, col, n, 0, 0.0};
    nsdae_status st = push(out, eof, err);
    if (st) nsdae_tokens_free(out);
    return st;
#undef FAIL
}
