# The single-hand fast paths of mjfast.scoring.score and max_fan, included by _fan.pxi (they
# run on the kernels and tables of the one extension module, _ext.pyx).

# They take the public call's arguments as they came and answer only the common case: a hand as
# an array of native ints, 27 ints or an ASCII tile string, melds, plain option values. Anything
# else, and any input the kernel refuses, returns None: the general path (mjfast.scoring.single)
# then answers or words the error, so both paths answer alike. The numbers come from the kernels of
# _fan.pxi; the costly fields are left to the Python scorer, built on first read
# (mjfast.scoring.types.LAZY). score_one and max_fan_one are C (_glue.h, at -O3): they read the
# scalar arguments, then call _score_rest / _max_fan_rest below for the rules, melds and result.

cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object, object, object) except -1

cdef extern from *:
    """
    static PyObject *mf_new_instance(PyObject *cls, PyObject *empty) {
        PyTypeObject *t = (PyTypeObject *)cls;
        return t->tp_new(t, empty, NULL);
    }
    """
    object mf_new_instance(object cls, object empty)

cdef extern from "_glue.h":
    ctypedef object (*mjg_score_fn)(object hand, int win, object melds, int void_suit, int flags,
                                    object rules, int sets)
    ctypedef object (*mjg_max_fan_fn)(object hand, object melds, int void_suit, object visible,
                                      object rules, int sets)
    int mjg_bind_fan(mjg_score_fn score, mjg_max_fan_fn max_fan, object voids) except -1
    tuple mjg_fan_functions(object module_name)

score_one, max_fan_one = mjg_fan_functions("mjfast._core._ext")


# Bound once by mjfast.scoring.fast (bind_single; until then the fast paths answer None): the
# kernels import nothing of the library.
cdef object _FanResult = None
cdef object _MaxFan = None
cdef object _NOT_WIN = None
cdef object _meld_rows = None
cdef object _NO_MELD_ROWS = None
cdef object _score_fields = None
cdef object _wait_fields = None
cdef object _describe = None

cdef dict _rules_seen = {}  # None, a preset name or id(Rules) -> _Rules
cdef _Rules _last = None  # the one read last (one global: threads see it whole)
cdef int _RULES_SEEN_LIMIT = 64


def bind_single(fan_result, max_fan, not_win, meld_rows, score_fields, wait_fields, describe,
                dict voids):
    """Bind what the fast paths build and read: the result types, the non-win result,
    ``meld_rows(melds)`` (``(summary, meld counts, concealed-kong marks or None)``, counts and
    marks as 27 bytes or None without melds; None when refused), the builders of the lazy fields,
    ``describe(rules)`` (``(Rules, int32 table, points model, largest internal fan the multiplier
    takes)`` or None) and the void-suit names."""
    global _FanResult, _MaxFan, _NOT_WIN, _meld_rows, _NO_MELD_ROWS, _score_fields, _wait_fields
    global _describe
    _FanResult, _MaxFan, _NOT_WIN, _meld_rows = fan_result, max_fan, not_win, meld_rows
    _NO_MELD_ROWS = meld_rows(None)
    _score_fields, _wait_fields, _describe = score_fields, wait_fields, describe
    mjg_bind_fan(_score_rest, _max_fan_rest, voids)


cdef class _Rules:
    """A rules argument as the fast paths read it, described once."""
    cdef object source  # the argument (kept, so its id stays its own)
    cdef object rules  # the Rules
    cdef object table  # its compiled int32 table (kept alive for r)
    cdef const int32_t *r
    cdef bint points
    cdef long limit


cdef _Rules _rules_of(object rules):
    """The description of *rules*, or None (a value the general path refuses)."""
    global _last
    cdef _Rules d = _last
    if d is not None and d.source is rules:
        return d
    key = rules if rules is None or type(rules) is str else id(rules)
    d = _rules_seen.get(key)
    if d is None or d.source is not rules and type(key) is int:
        d = _described(rules)
        if d is None:
            return None
        if len(_rules_seen) >= _RULES_SEEN_LIMIT:
            _rules_seen.clear()
        _rules_seen[key] = d
    _last = d
    return d


cdef _Rules _described(object rules):
    cdef const int32_t[::1] table
    described = _describe(rules)
    if described is None:
        return None
    cdef _Rules d = _Rules()
    d.source = rules
    d.rules, d.table, d.points, d.limit = described
    table = d.table
    d.r = &table[0]
    return d


cdef object _job(mf_job_t *job, const uint8_t *row, object melds, int sets, int void_suit,
                 const int32_t *rules):
    """Fill a one-row job; returns the melds' rows (the caller keeps them while the job runs)
    or None: the general path reads the melds."""
    memset(job, 0, sizeof(mf_job_t))
    job.hands = row
    job.sets = sets
    job.void_scalar = void_suit
    job.rules = rules
    rows = _NO_MELD_ROWS if melds is None else _meld_rows(melds)
    if rows is not None:
        _, counts, marks = rows
        if counts is not None:
            job.melds = <const uint8_t *>PyBytes_AS_STRING(counts)
        if marks is not None:
            job.conc = <const uint8_t *>PyBytes_AS_STRING(marks)
    return rows


cdef object _power(int n):
    """``2 ** n`` for n >= 0."""
    return PyLong_FromLongLong(1LL << n) if n < 63 else (<object>1) << n


cdef object _multiplier(_Rules d, int internal):
    """``Rules.multiplier(internal)`` (the caller keeps it in 0..d.limit)."""
    internal = mf_capped(d.r, internal)
    return internal if d.points else _power(internal)


cdef object _built(object cls, object lazy):
    """A new instance of the result class *cls* holding *lazy* (``object.__new__(cls)``)."""
    r = mf_new_instance(cls, ())
    PyObject_GenericSetAttr(r, "_lazy", lazy)
    return r


cdef object _score_rest(object hand, int w, object melds, int vs, int flags, object rules,
                        int nsets):
    """score_one (_glue.h) past its scalar arguments: win tile w, void suit vs, flags, sets."""
    cdef uint8_t row[27]
    cdef mf_job_t job
    cdef int32_t err[3]
    cdef int total, capped, offset
    cdef _Rules d = _rules_of(rules)
    if d is None or not _load_hand(hand, row):
        return None
    melds_rows = _job(&job, row, melds, nsets, vs, d.r)
    if melds_rows is None:
        return None
    job.win_scalar = w
    job.flag_scalar = flags
    if mf_fan_total(&job, 0, err, &total) != MJ_OK:
        return None
    if total == MF_NONE:
        return _NOT_WIN
    capped = mf_capped(d.r, total)
    if capped < 0:  # the general path refuses the multiplier of a negative fan
        return None
    offset = d.r[MF_R_OFFSET]
    r = _built(_FanResult, (_score_fields, PyBytes_FromStringAndSize(<char *>row, 27),
                            melds_rows[0], w, vs, flags, d.rules, nsets))
    PyObject_GenericSetAttr(r, "is_win", True)
    PyObject_GenericSetAttr(r, "fan", capped + offset)
    PyObject_GenericSetAttr(r, "raw_fan", total + offset)
    PyObject_GenericSetAttr(r, "multiplier", capped if d.points else _power(capped))
    return r


cdef object _max_fan_rest(object hand, object melds, int vs, object visible, object rules,
                          int nsets):
    """max_fan_one (_glue.h) past its scalar arguments: void suit vs, sets (the options are
    the defaults)."""
    cdef uint8_t row[27]
    cdef uint8_t seen[27]
    cdef mf_job_t job
    cdef int32_t err[3]
    cdef int fan, tile, internal
    cdef _Rules d = _rules_of(rules)
    if (d is None or not _load_hand(hand, row)
            or (visible is not None and not _load_hand(visible, seen))):
        return None
    melds_rows = _job(&job, row, melds, nsets, vs, d.r)
    if melds_rows is None:
        return None
    if visible is not None:
        job.visible = seen
    if mf_max_row(&job, 0, err, &fan, &tile) != MJ_OK:
        return None
    r = _built(_MaxFan, (_wait_fields, PyBytes_FromStringAndSize(<char *>row, 27), melds_rows[0], vs,
                         None if visible is None else PyBytes_FromStringAndSize(<char *>seen, 27),
                         d.rules, nsets))
    if fan == MF_NONE:
        PyObject_GenericSetAttr(r, "fan", None)
        PyObject_GenericSetAttr(r, "payment", 0)
        PyObject_GenericSetAttr(r, "best_wait", None)
        return r
    internal = fan - d.r[MF_R_OFFSET]
    if not 0 <= internal <= d.limit:  # the general path refuses it
        return None
    PyObject_GenericSetAttr(r, "fan", fan)
    PyObject_GenericSetAttr(r, "payment", _multiplier(d, internal))
    PyObject_GenericSetAttr(r, "best_wait", tile)
    return r
