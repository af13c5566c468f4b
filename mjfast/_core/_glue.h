/* The glue's hot paths in C: the one reader of a single hand (a tile string, 27 ints or a (27,)
 * array of native ints) and the single-hand fast paths (one() of the analysis kernels, the
 * scalar arguments of score_one / max_fan_one); TableBatch's loops are _glue_table.h.
 *
 * _ext.pxd includes this file after the C library (mjfast.c, mjfast_table_play.h) and ahead of
 * the pragma that compiles the Cython glue for size: these few paths run once per call (or per
 * table) and are what a single-hand call costs besides Python, so they are compiled at the
 * library's -O3. Python-facing (Python.h first): not part of the C library in src/. */
#ifndef MJFAST_GLUE_H
#define MJFAST_GLUE_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---- reading one hand --------------------------------------------------------------------- */

enum { MJG_PLAIN_CHARS = 256 }; /* longer strings go to the general path, as in parse_counts */

/* The counts of an ASCII hand string (digits 1-9 each group followed by m, p or s; ASCII
 * whitespace between groups) into row; 0 for anything else, or a fifth copy. */
static int mjg_parse(const unsigned char *s, Py_ssize_t n, uint8_t *row) {
    Py_ssize_t i, k, start = -1;
    memset(row, 0, 27);
    for (i = 0; i < n; i++) {
        unsigned char ch = s[i];
        int base;
        if (ch >= '1' && ch <= '9') {
            if (start < 0)
                start = i;
            continue;
        }
        if (ch == 'm' || ch == 'p' || ch == 's') {
            if (start < 0)
                return 0;
            base = ch == 'm' ? 0 : ch == 'p' ? 9 : 18;
            for (k = start; k < i; k++)
                if (++row[base + s[k] - '1'] > 4)
                    return 0;
            start = -1;
        } else if (ch == ' ' || (ch >= 0x09 && ch <= 0x0D)) {
            if (start >= 0)
                return 0;
        } else {
            return 0;
        }
    }
    return start < 0;
}

/* Whether one of the 27 counts is over 4, a word of 8 at a time (bytes of 8 and up have a bit
 * of 0xF8; 5..7 reach 8 with 3 added, without a carry). */
static int mjg_over4(const uint8_t *row) {
    uint64_t w, bad = 0;
    int k;
    for (k = 0; k < 24; k += 8) {
        memcpy(&w, row + k, 8);
        bad |= w | (w + 0x0303030303030303ULL);
    }
    for (k = 24; k < 27; k++)
        bad |= (uint64_t)(row[k] | (row[k] + 3));
    return (bad & 0xF8F8F8F8F8F8F8F8ULL) != 0;
}

/* One native int of size bytes at p (unsigned 64-bit values above INT64_MAX turn negative:
 * refused like any count below 0). */
static int64_t mjg_item(const char *p, Py_ssize_t size, int is_signed) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    if (size == 1) {
        memcpy(&u8, p, 1);
        return is_signed ? (int8_t)u8 : u8;
    }
    if (size == 2) {
        memcpy(&u16, p, 2);
        return is_signed ? (int16_t)u16 : u16;
    }
    if (size == 4) {
        memcpy(&u32, p, 4);
        return is_signed ? (int32_t)u32 : (int64_t)u32;
    }
    memcpy(&u64, p, 8);
    return (int64_t)u64;
}

/* The 27 counts of a 1-D buffer of native ints (any size, signed or not); 0 for any other
 * buffer or a count outside 0..4. */
static int mjg_load_buffer(const Py_buffer *view, uint8_t *row) {
    Py_ssize_t k, size = view->itemsize, stride;
    const char *p = (const char *)view->buf;
    char fmt;
    int is_signed;
    if (view->ndim != 1 || view->shape[0] != 27 || view->format == NULL || view->format[0] == 0
            || view->format[1] != 0)
        return 0;
    fmt = view->format[0];
    if (strchr("bBhHiIlLqQ", fmt) == NULL || (size != 1 && size != 2 && size != 4 && size != 8))
        return 0;
    stride = view->strides[0];
    if (size == 1) { /* uint8 / int8, the common case (an int8 below 0 reads as over 4) */
        if (stride == 1)
            memcpy(row, p, 27);
        else
            for (k = 0; k < 27; k++)
                row[k] = (uint8_t)p[k * stride];
        return !mjg_over4(row);
    }
    is_signed = strchr("bhilq", fmt) != NULL;
    for (k = 0; k < 27; k++) {
        int64_t v = mjg_item(p + k * stride, size, is_signed);
        if (v < 0 || v > 4)
            return 0;
        row[k] = (uint8_t)v;
    }
    return 1;
}

static PyObject *mjg_ndarray;  /* numpy.ndarray, bound at import (mjg_bind) */
static PyObject *mjg_empty;   /* numpy.empty */
static PyObject *mjg_small[5]; /* the ints 0..4 (CPython's cached small ints) */

/* 0..4 for an int (not a bool) of that value, else -1. */
static int mjg_count(PyObject *x) {
    int k, overflow;
    long v;
    for (k = 0; k < 5; k++)
        if (x == mjg_small[k])
            return k;
    if (!PyLong_CheckExact(x))
        return -1;
    v = PyLong_AsLongAndOverflow(x, &overflow); /* an int: no error is possible */
    return !overflow && v >= 0 && v <= 4 ? (int)v : -1;
}

/* Bind numpy.ndarray and numpy.empty (at import): 0, or -1 with an error set. */
static int mjg_bind(PyObject *ndarray, PyObject *empty) {
    int k;
    mjg_ndarray = Py_NewRef(ndarray);
    mjg_empty = Py_NewRef(empty);
    for (k = 0; k < 5; k++)
        if ((mjg_small[k] = PyLong_FromLong(k)) == NULL)
            return -1;
    return 0;
}

/* Copy one hand into row: a (27,) array of native ints, 27 ints (list or tuple) or an ASCII tile
 * string. 1: read; 0: the general path reads it (another type or dtype, or anything it would
 * refuse, so that path words the error); -1: an error is set. */
static int mjg_load_hand(PyObject *hand, uint8_t *row) {
    Py_buffer view;
    int ok;
    if (PyUnicode_CheckExact(hand)) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(hand);
        return PyUnicode_IS_ASCII(hand) && n <= MJG_PLAIN_CHARS
            && mjg_parse(PyUnicode_1BYTE_DATA(hand), n, row);
    }
    if (PyList_CheckExact(hand) || PyTuple_CheckExact(hand)) {
        PyObject **items = PySequence_Fast_ITEMS(hand);
        int k;
        if (PySequence_Fast_GET_SIZE(hand) != 27)
            return 0;
        for (k = 0; k < 27; k++) {
            int v = mjg_count(items[k]);
            if (v < 0)
                return 0;
            row[k] = (uint8_t)v;
        }
        return 1;
    }
    if ((PyObject *)Py_TYPE(hand) != mjg_ndarray)
        return 0;
    if (PyObject_GetBuffer(hand, &view, PyBUF_RECORDS_RO) < 0) {
        /* dtypes without a buffer format (datetime64): the general path */
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_BufferError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    ok = mjg_load_buffer(&view, row);
    PyBuffer_Release(&view);
    return ok;
}

/* 0 when a fast-call entry got want positional arguments, else -1 with a TypeError naming it. */
static int mjg_nargs(const char *name, Py_ssize_t want, Py_ssize_t nargs) {
    if (nargs == want)
        return 0;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments (%zd given)", name, want,
                 nargs);
    return -1;
}

/* ---- one(): the analysis kernels on one meld-free hand ------------------------------------ */

/* Whether s is the str text (ASCII). */
static int mjg_is(PyObject *s, const char *text) {
    size_t n = strlen(text);
    return PyUnicode_CheckExact(s) && PyUnicode_IS_ASCII(s)
        && (size_t)PyUnicode_GET_LENGTH(s) == n && memcmp(PyUnicode_1BYTE_DATA(s), text, n) == 0;
}

/* An int (not a bool) within [low, high], else other. */
static long mjg_int(PyObject *value, long low, long high, long other) {
    int overflow = 0;
    long v;
    if (!PyLong_CheckExact(value))
        return other;
    v = PyLong_AsLongAndOverflow(value, &overflow); /* an int: no error is possible */
    return !overflow && v >= low && v <= high ? v : other;
}

/* The form code of "all" / "regular" / "seven_pairs", else -1. */
static int mjg_form(PyObject *form) {
    if (mjg_is(form, "all"))
        return MJ_FORM_ALL;
    if (mjg_is(form, "regular"))
        return MJ_FORM_REGULAR;
    if (mjg_is(form, "seven_pairs"))
        return MJ_FORM_SEVEN_PAIRS;
    return -1;
}

/* A void suit as one() takes it (None, 0..2 or "m" / "p" / "s"): -1 for none, 0..2; -2 for
 * anything else. */
static int mjg_suit(PyObject *v) {
    if (v == Py_None)
        return -1;
    if (PyLong_CheckExact(v))
        return (int)mjg_int(v, 0, 2, -2);
    if (mjg_is(v, "m"))
        return 0;
    if (mjg_is(v, "p"))
        return 1;
    if (mjg_is(v, "s"))
        return 2;
    return -2;
}

PyDoc_STRVAR(mjg_one_doc,
"one(op, hand, form, void_suit, void_rule, melds, visible, out, workers, errors, sets)\n--\n\n"
"Fast path for one meld-free hand as the single-hand reader takes it (a (27,) array of native\n"
"ints, 27 ints or an ASCII tile string), with plain options.\n\n"
"Takes the public call's arguments as they came. Returns the result (int, bool, or a (27,)\n"
"int8 array), or None when the call needs the general path (mjfast._validate): another input\n"
"type, melds, visible counts, an out array, any option value it does not take as is, or an\n"
"invalid hand (whose error the general path words). So both paths answer alike.");

static PyObject *mjg_one(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *hand, *form, *void_suit, *void_rule, *workers, *errors, *sets, *result;
    uint8_t row[27];
    int8_t arr[27];
    mj_job_t job;
    int8_t s8 = 0;
    uint8_t b8 = 0;
    uint32_t u32 = 0;
    Py_buffer view;
    long op, nsets;
    int form_code, code, loaded;
    (void)self;
    if (mjg_nargs("one", 11, nargs) < 0)
        return NULL;
    op = mjg_int(args[0], MJ_OP_SHANTEN, MJ_OP_DISCARDS, -1);
    hand = args[1], form = args[2], void_suit = args[3], void_rule = args[4];
    workers = args[8], errors = args[9], sets = args[10];
    if (op < 0) {
        PyErr_SetString(PyExc_ValueError, "one: op is not a kernel op");
        return NULL;
    }
    if (args[5] != Py_None || args[6] != Py_None || args[7] != Py_None
            || mjg_int(workers, 1, 1, 0) != 1 || !mjg_is(errors, "raise")
            || (void_rule != Py_True && void_rule != Py_False))
        Py_RETURN_NONE;
    nsets = mjg_int(sets, 2, 4, -1);
    form_code = mjg_form(form);
    code = mjg_suit(void_suit);
    if (nsets < 0 || form_code < 0 || code == -2 || (void_rule == Py_False && code >= 0))
        Py_RETURN_NONE;
    loaded = mjg_load_hand(hand, row);
    if (loaded <= 0)
        return loaded < 0 ? NULL : Py_NewRef(Py_None);
    memset(&job, 0, sizeof job);
    job.op = (int)op;
    job.form = form_code;
    job.void_rule = void_rule == Py_True;
    job.sets = (int)nsets;
    job.hands = row;
    job.void_scalar = code;
    job.out = op == MJ_OP_SHANTEN ? (void *)&s8 : op == MJ_OP_IS_WIN ? (void *)&b8
        : op == MJ_OP_WAITS ? (void *)&u32 : (void *)arr;
    if (mj_run(&job, 0, 1) >= 0)
        Py_RETURN_NONE;
    if (op == MJ_OP_SHANTEN)
        return PyLong_FromLong(s8);
    if (op == MJ_OP_IS_WIN)
        return PyBool_FromLong(b8);
    if (op == MJ_OP_WAITS)
        return PyLong_FromUnsignedLong(u32);
    result = PyObject_CallFunction(mjg_empty, "is", 27, "int8");
    if (result == NULL)
        return NULL;
    if (PyObject_GetBuffer(result, &view, PyBUF_CONTIG) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    memcpy(view.buf, arr, 27);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef mjg_one_def = {"one", (PyCFunction)(void (*)(void))mjg_one, METH_FASTCALL,
                                  mjg_one_doc};

/* one() as a function of the module named module_name. */
static PyObject *mjg_one_function(PyObject *module_name) {
    return PyCFunction_NewEx(&mjg_one_def, NULL, module_name);
}

/* ---- score() and max_fan(): the scalar arguments of their single-hand fast paths ---------- */

/* The rest of each fast path (_fan_single.pxi: the rules, the melds, the result object), bound
 * by bind_single with the void-suit names; until then the fast paths answer None. */
typedef PyObject *(*mjg_score_fn)(PyObject *hand, int win, PyObject *melds, int void_suit,
                                  int flags, PyObject *rules, int sets);
typedef PyObject *(*mjg_max_fan_fn)(PyObject *hand, PyObject *melds, int void_suit,
                                    PyObject *visible, PyObject *rules, int sets);
static mjg_score_fn mjg_score_rest;
static mjg_max_fan_fn mjg_max_fan_rest;
static PyObject *mjg_voids; /* void-suit name -> 0..2 */

/* A win tile: an int 0..26 or one ASCII tile ("5p"); -1: the general path reads it; -2: an
 * error is set. */
static int mjg_tile(PyObject *tile) {
    uint8_t row[27];
    int k, found = -1, loaded;
    if (PyLong_CheckExact(tile))
        return (int)mjg_int(tile, 0, 26, -1);
    if (!PyUnicode_CheckExact(tile))
        return -1;
    loaded = mjg_load_hand(tile, row);
    if (loaded <= 0)
        return loaded < 0 ? -2 : -1;
    for (k = 0; k < 27; k++) {
        if (row[k]) {
            if (found >= 0 || row[k] > 1)
                return -1;
            found = k;
        }
    }
    return found;
}

/* A void suit 0..2, -1 for none, -2: the general path reads it, -3: an error is set. */
static int mjg_void(PyObject *v) {
    PyObject *code;
    if (v == Py_None)
        return -1;
    if (PyLong_CheckExact(v))
        return (int)mjg_int(v, -1, 2, -2);
    if (!PyUnicode_CheckExact(v) || mjg_voids == NULL)
        return -2;
    code = PyDict_GetItemWithError(mjg_voids, v);
    if (code == NULL)
        return PyErr_Occurred() ? -3 : -2;
    return (int)mjg_int(code, 0, 2, -2);
}

/* bit for True, 0 for False, -1 for anything else (the general path reads it). */
static int mjg_flag(PyObject *value, int bit) {
    return value == Py_True ? bit : value == Py_False ? 0 : -1;
}

/* score_one(hand, win_tile, melds, void_suit, self_drawn, after_kong, after_kong_discard,
 * robbing_kong, last_tile, tian_hu, di_hu, jue_zhang, rules, sets) */
static PyObject *mjg_score_one(PyObject *self, PyObject *const *a, Py_ssize_t nargs) {
    static const int bits[8] = {MF_SD, MF_AK, MF_AKD, MF_ROB, MF_LAST, MF_TIAN, MF_DI, MF_JUE};
    int w, vs, k, flags = 0;
    long nsets;
    (void)self;
    if (mjg_nargs("score_one", 14, nargs) < 0)
        return NULL;
    if ((w = mjg_tile(a[1])) == -2 || (vs = mjg_void(a[3])) == -3)
        return NULL;
    nsets = mjg_int(a[13], 2, 4, -1);
    if (w < 0 || vs == -2 || nsets < 0 || mjg_score_rest == NULL)
        Py_RETURN_NONE;
    for (k = 0; k < 8; k++) {
        int f = mjg_flag(a[4 + k], bits[k]);
        if (f < 0)
            Py_RETURN_NONE;
        flags |= f;
    }
    return mjg_score_rest(a[0], w, a[2], vs, flags, a[12], (int)nsets);
}

/* max_fan_one(hand, melds, void_suit, visible, rules, sets, workers, out, best_wait, errors,
 * best_tile) */
static PyObject *mjg_max_fan_one(PyObject *self, PyObject *const *a, Py_ssize_t nargs) {
    int vs;
    long nsets;
    (void)self;
    if (mjg_nargs("max_fan_one", 11, nargs) < 0)
        return NULL;
    if ((vs = mjg_void(a[2])) == -3)
        return NULL;
    nsets = mjg_int(a[5], 2, 4, -1);
    if (vs == -2 || nsets < 0 || mjg_max_fan_rest == NULL || a[7] != Py_None || a[8] != Py_False
            || a[10] != Py_None || mjg_int(a[6], 1, 1, 0) != 1 || !mjg_is(a[9], "raise"))
        Py_RETURN_NONE;
    return mjg_max_fan_rest(a[0], a[1], vs, a[3], a[4], (int)nsets);
}

static PyMethodDef mjg_score_one_def = {
    "score_one", (PyCFunction)(void (*)(void))mjg_score_one, METH_FASTCALL,
    "``mjfast.scoring.score`` of the common case (arguments in its order), or None."};
static PyMethodDef mjg_max_fan_one_def = {
    "max_fan_one", (PyCFunction)(void (*)(void))mjg_max_fan_one, METH_FASTCALL,
    "``mjfast.scoring.max_fan`` of the common case (arguments in its order), or None."};

/* Bind the rest of the fast paths and the void-suit names (a dict): 0, or -1 with an error. */
static int mjg_bind_fan(mjg_score_fn score, mjg_max_fan_fn max_fan, PyObject *voids) {
    if (!PyDict_Check(voids)) {
        PyErr_SetString(PyExc_TypeError, "bind_single: voids must be a dict");
        return -1;
    }
    Py_XSETREF(mjg_voids, Py_NewRef(voids));
    mjg_score_rest = score;
    mjg_max_fan_rest = max_fan;
    return 0;
}

/* (score_one, max_fan_one) as functions of the module named module_name. */
static PyObject *mjg_fan_functions(PyObject *module_name) {
    PyObject *s = PyCFunction_NewEx(&mjg_score_one_def, NULL, module_name), *m;
    m = s ? PyCFunction_NewEx(&mjg_max_fan_one_def, NULL, module_name) : NULL;
    if (m == NULL) {
        Py_XDECREF(s);
        return NULL;
    }
    return Py_BuildValue("(NN)", s, m);
}

#endif /* MJFAST_GLUE_H */
