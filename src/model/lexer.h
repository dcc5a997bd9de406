/* Tokens of the .nsm language. The whole input is tokenised up front so that the parser can look
 * ahead freely (conditions need to see past a '(' to decide between a parenthesised condition
 * and a parenthesised expression). */
#ifndef NSDAE_MODEL_LEXER_H
#define NSDAE_MODEL_LEXER_H

#include <stddef.h>

#include <nsdae/status.h>

typedef enum tok_kind {
    T_EOF = 0, T_IDENT, T_NUMBER,
    /* keywords */
    T_MODEL, T_END, T_PARAMETER, T_VAR, T_EQUATION, T_IF, T_THEN, T_ELSEIF, T_ELSE, T_WHEN, T_DER,
    T_TIME, T_IN, T_RESTITUTION, T_EXPERIMENT, T_AND, T_OR, T_NOT, T_FOR, T_LOOP,
    /* punctuation */
    T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET, T_COMMA, T_SEMI, T_ASSIGN, T_PLUS, T_MINUS, T_STAR,
    T_SLASH, T_CARET, T_LT, T_GT, T_LE, T_GE, T_PERP, T_LBRACE, T_RBRACE, T_COLON
} tok_kind;

typedef struct token {
    tok_kind kind;
    int line, col;
    size_t start, len;   /* slice of the source */
    double number;       /* T_NUMBER */
} token;

typedef struct token_list {
    token *v;
    size_t n, cap;
} token_list;

/* Limits: bounded input so that no input can exhaust memory or time. */
#define NSDAE_MODEL_MAX_BYTES ((size_t)4 << 20)
#define NSDAE_MODEL_MAX_IDENT 255

/* Tokenises src (length bytes; NULs inside are errors). On error returns NSDAE_PARSE with
 * "file:line:col: message". The list ends with a T_EOF token. */
nsdae_status nsdae_lex(const char *src, size_t length, const char *filename, token_list *out, nsdae_error *err);
void nsdae_tokens_free(token_list *list);

/* A human-readable description of a token kind ("';'", "'then'", "a number", "end of file"). */
const char *nsdae_tok_name(tok_kind kind);

#endif
