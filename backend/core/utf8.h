/* utf8: text that came from outside byoc, decoded and made safe to print.
 *
 * Strings byoc did not write (a service's error message, a job's failure
 * reason, an entry name in a results archive, a file name in a build context)
 * can hold escape sequences that retitle, redraw or reprogram the user's
 * terminal (OSC 52 even writes the clipboard). Every byoc_err message passes
 * through byoc_printable_inplace, and the CLI prints other outside text through
 * it; the TUI draws through tui_text_sanitize, which builds on the same parts. */
#ifndef BYOC_CORE_UTF8_H
#define BYOC_CORE_UTF8_H

#include <stdarg.h>
#include <stddef.h>

/* Decode one code point at s (s[0] != 0); returns the bytes used (>= 1).
 * An invalid sequence yields *cp = 0xFFFD and 1 byte. Stops at a NUL, so a
 * NUL-terminated string is never read past its end. */
size_t byoc_utf8_decode(const char *s, unsigned *cp);
/* Encode cp into out (>= 4 bytes); returns the bytes written (0 if invalid). */
size_t byoc_utf8_encode(unsigned cp, char *out);

/* Length of the ANSI/VT escape sequence starting at s[0] == ESC, of the n
 * bytes at s (the whole rest when it is unterminated). */
size_t byoc_escape_len(const char *s, size_t n);

/* Copy src ("" for NULL) into dst of size bytes (> 0, with the NUL). When it
 * does not fit, it is cut after the last whole UTF-8 character that does: a
 * fixed-size field never ends in part of one, which a JSON writer refuses
 * (json_string gives NULL) and so would drop the whole field. Returns the
 * length copied. */
size_t byoc_utf8_copy(char *dst, size_t size, const char *src);
/* As snprintf into dst of size bytes (> 0), with byoc_utf8_copy's cut. */
size_t byoc_utf8_snprintf(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
size_t byoc_utf8_vsnprintf(char *dst, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* The length of s[0..n) without a last UTF-8 sequence that n cut short
 * (n itself when none was cut). */
size_t byoc_utf8_whole(const char *s, size_t n);
/* The offset of the first byte of s[0..n) that does not start a valid UTF-8
 * sequence (overlong forms, surrogates, code points past U+10FFFF and a
 * sequence n cuts short all count), or n when all n bytes are valid. NUL bytes
 * are valid here and do not stop the scan. */
size_t byoc_utf8_invalid_at(const char *s, size_t n);

/* Make s one printable line, in place (it never grows): escape sequences are
 * removed, CR dropped, newlines, tabs and the other whitespace controls become
 * a space, every other control character (C0, DEL, C1 in either encoding) and
 * invalid UTF-8 becomes '?'. Valid UTF-8 text is kept. Returns the new length
 * (0 for NULL). */
size_t byoc_printable_inplace(char *s);
/* A printable copy of s, as byoc_printable_inplace makes it ("" for NULL).
 * Caller frees. */
char *byoc_printable_dup(const char *s);

#endif
