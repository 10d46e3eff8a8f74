/* The C back end's runtime library: what every generated module includes (see interpreter/cgen.py).
 *
 * Generated code works on the Python State's own data (st.vals, st.zones, the locals dict of the
 * running procedure): a state stays plain Python data, so cloning, JSON and the Python back end
 * see exactly what the C code left.  Inside a generated function every scalar value is an int64:
 *   int: itself; bool: 0/1; player and piece: their number; a table or enum key: its row index;
 *   text: an index into TEXTS; none: RT_NONE (outside the language's numbers, -(2^63-1) .. 2^63-1).
 * Lists are Python lists kept alive by the call (R.kept, then R.spill: rt_keep) until the call returns.
 *
 * An error sets a Python exception and jumps to the function's `fail` label, which attaches the
 * spec place of the statement that ran (SITES[r->site]) to the exception as `rules_place`: the
 * runtime then raises the same RuleError, at the same place, as the Python back end.
 * Every array index is bounded; the step budget is spent as in the generated Python.
 */
/* CPython's own inline helpers (Py_TYPE, PyTuple_GET_SIZE, ...) without their debug assertions, as a release
 * build of an extension module has them: with assertions they are not inlined, and each costs a call. */
#ifndef NDEBUG
#define NDEBUG 1
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* A small helper of the hot paths, inlined even at -Og (which inlines nothing of its own accord). */
#define RT_HOT static inline __attribute__((always_inline))

/* Py_DECREF inlined, for the run loop's own hot paths: at -Og CPython's static inline Py_DECREF stays a function of
 * its own, called at every reference let go of (a release build's Py_DECREF is exactly this; a debug build keeps
 * its own).  The generated code keeps the call: inlined there it makes every build longer (measured: 5% more
 * compile time for 0.7% fewer instructions of a shipped game's random game). */
#if !defined(Py_REF_DEBUG) && PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
RT_HOT void rt_decref(PyObject *o) { if (--o->ob_refcnt == 0) _Py_Dealloc(o); }
#else
RT_HOT void rt_decref(PyObject *o) { Py_DECREF(o); }
#endif
RT_HOT void rt_xdecref(PyObject *o) { if (o) rt_decref(o); }

#define RT_NONE INT64_MIN
#define RT_MAX_INT INT64_MAX
#define RT_STEP_LIMIT 1000000LL
#define RT_MAX_RANGE 1000000LL
#define RT_MAX_LIST 1000000LL

/* Set by _setup() from Python (owned references). */
static PyObject *SITES;     /* list of (pos, citations) */
static PyObject *TEXTS;     /* list of str, the interned texts */
static PyObject *TEXT_IDS;  /* dict str -> index in TEXTS */
static PyObject *KEYS;      /* tuple: for each entity table, a tuple of its keys */
static PyObject *KEY_IDS;   /* tuple: for each entity table, a dict key -> index */
static PyObject *STUCK, *TOO_LARGE, *VALUES, *PENDING;
static PyObject *S_world, *S_nodes, *S_adjacent;
static PyObject *S_pending, *S_options, *S_log, *S_check_invariants, *S_decision, *S_texts, *S_history;
static PyObject *S_trail, *S_rng, *S_begin_scope, *S_swap_pieces, *S_move_piece, *S_lazy;
static PyObject *S_frames, *S_budget, *S_vals, *S_zones, *S_loc, *S_face_up, *S_n, *S_seen, *S_used, *S_place;
static PyObject *SMALL_INTS;  /* tuple of 0..255 */

/* ------------------------------------------------------------ the State's slots
 * The State class (interpreter.runtime.State: a class with __slots__) read and set in place, where it is laid
 * out as expected (each of these slots a plain slot): found once, at the first run.  Elsewhere (another
 * class) by attribute, as before. */
static const char *CS_NAMES[] = {"_history", "_history_written", "budget", "check_invariants", "face_up", "frames",
                                 "game", "lazy", "loc", "log", "n", "pending", "rng", "scope_limits", "seats", "seen",
                                 "settings", "start", "trail", "used", "vals", "variant", "winners", "world", "zones"};
enum { CSI_history, CSI_history_written, CSI_budget, CSI_check_invariants, CSI_face_up, CSI_frames, CSI_game,
       CSI_lazy, CSI_loc, CSI_log, CSI_n, CSI_pending, CSI_rng, CSI_scope_limits, CSI_seats, CSI_seen,
       CSI_settings, CSI_start, CSI_trail, CSI_used, CSI_vals, CSI_variant, CSI_winners, CSI_world, CSI_zones,
       CS_SLOTS };
static PyTypeObject *CS_TYPE;  /* the State class laid out (a strong reference), or NULL */
static PyTypeObject *CS_SUB;   /* this module's subclass of it, laid out alike (see rt_state_class_py), or NULL */
/* Whether t is the State class or this module's subclass of it, both laid out as expected (once found). */
#define RT_IS_CS(t) ((t) == CS_TYPE || (t) == CS_SUB)
static int CS_BAD;             /* it was not laid out as expected */
static Py_ssize_t CS_AT[CS_SLOTS];
_Static_assert(sizeof(CS_NAMES) / sizeof(CS_NAMES[0]) == CS_SLOTS, "a name per slot");

/* Find the slots of t, the first State class seen, if it is laid out as expected (see rt_state_layout). */
static int rt_state_layout_found(PyTypeObject *t) {
    if (CS_TYPE || CS_BAD || strcmp(t->tp_name, "State") != 0) return 0;  /* (a subclass is left to Python) */
    int members = 0;
    for (PyMemberDef *m = t->tp_members; m && m->name; m++) members++;
    if (members != CS_SLOTS) return 0;  /* (not the class that holds the slots: a subclass of it, seen first) */
    CS_BAD = 1;
    if (t->tp_dictoffset != 0 || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE)) return 0;
    for (int i = 0; i < CS_SLOTS; i++) {
        PyObject *d = PyObject_GetAttrString((PyObject *)t, CS_NAMES[i]);
        if (!d) { PyErr_Clear(); return 0; }
        int ok = Py_TYPE(d) == &PyMemberDescr_Type && ((PyMemberDescrObject *)d)->d_common.d_type == t
                 && ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok) CS_AT[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
        if (!ok || CS_AT[i] < (Py_ssize_t)sizeof(PyObject) || CS_AT[i] > t->tp_basicsize - (Py_ssize_t)sizeof(PyObject *))
            return 0;
    }
    CS_TYPE = (PyTypeObject *)Py_NewRef(t);
    CS_BAD = 0;
    return 1;
}

/* Whether t is the State class laid out as expected (found at the first state seen; inlined: asked at every run). */
RT_HOT int rt_state_layout(PyTypeObject *t) { return RT_IS_CS(t) || rt_state_layout_found(t); }

#define CS_SLOT(o, i) (*(PyObject **)((char *)(o) + CS_AT[i]))

/* o.<name> (a new reference), read in place where o is a State laid out as expected. */
RT_HOT PyObject *rt_attr(PyObject *o, int slot, PyObject *name) {
    if (RT_IS_CS(Py_TYPE(o))) { PyObject *v = CS_SLOT(o, slot); if (v) return Py_NewRef(v); }
    return PyObject_GetAttr(o, name);
}

/* o.<name> = v, set in place where o is a State laid out as expected. */
RT_HOT int rt_set_attr(PyObject *o, int slot, PyObject *name, PyObject *v) {
    if (RT_IS_CS(Py_TYPE(o))) { Py_XSETREF(CS_SLOT(o, slot), Py_NewRef(v)); return 0; }
    return PyObject_SetAttr(o, name, v);
}

/* The temporaries a call keeps alive (rt_keep) are held in the R itself, up to RT_KEPT of them, then in a list. */
#define RT_KEPT 24

typedef struct R {
    PyObject *st;     /* the State (borrowed) */
    PyObject *env;    /* the running procedure's locals (borrowed) */
    PyObject *spill;  /* temporaries of this call past the first RT_KEPT (a list, owned, or NULL) */
    PyObject *kept[RT_KEPT];  /* the first temporaries of this call (owned) */
    int nkept;
    PyObject *vals;   /* st.vals (owned once read) */
    PyObject *zones;  /* st.zones (owned once read) */
    PyObject *loc;    /* st.loc (owned once read) */
    PyObject *face_up;/* st.face_up (owned once read) */
    int64_t budget;
    int64_t n;        /* players */
    int site;
} R;

static int rt_stuck(void) {
    PyObject *e = PyObject_CallNoArgs(STUCK);
    if (e) { PyErr_SetObject(STUCK, e); Py_DECREF(e); }
    return -1;
}

static int rt_too_large(const char *msg) {
    PyObject *e = PyObject_CallFunction(TOO_LARGE, "s", msg);
    if (e) { PyErr_SetObject(TOO_LARGE, e); Py_DECREF(e); }
    return -1;
}

/* Take steps from the budget; -1 (Stuck set) once it is spent. */
static inline int rt_charge(R *r, int64_t steps) {
    if (steps < 0 || steps > RT_STEP_LIMIT * 4) steps = RT_STEP_LIMIT * 4;
    r->budget -= steps;
    return r->budget < 0 ? rt_stuck() : 0;
}

/* An R for a call on st with these locals, its budget yet to be set (rt_begin: the state's). */
static int rt_open(R *r, PyObject *st, PyObject *env) {
    /* all but the temporaries' room cleared (those below nkept are never read) */
    memset(r, 0, offsetof(R, kept));
    memset((char *)r + offsetof(R, nkept), 0, sizeof(*r) - offsetof(R, nkept));
    r->st = st;
    r->env = env;
#if PY_VERSION_HEX < 0x030C0000
    if (rt_state_layout(Py_TYPE(st))) {
        /* st.vals and st.zones held from the start (as the first read of each would: the mirrors' quick test) */
        PyObject *vals = CS_SLOT(st, CSI_vals), *zones = CS_SLOT(st, CSI_zones);
        if (vals) r->vals = Py_NewRef(vals);
        if (zones) r->zones = Py_NewRef(zones);
        PyObject *v = CS_SLOT(st, CSI_n);  /* the player count, an int of one digit, read in place */
        if (v && PyLong_CheckExact(v) && Py_SIZE(v) == 1 && ((PyLongObject *)v)->ob_digit[0] <= 64) {
            r->n = (int64_t)((PyLongObject *)v)->ob_digit[0];
            return 0;
        }
    }
#else
    rt_state_layout(Py_TYPE(st));
#endif
    PyObject *n = rt_attr(st, CSI_n, S_n);
    if (n) {
        r->n = PyLong_AsLongLong(n);
        Py_DECREF(n);
        if (r->n >= 1 && r->n <= 64) return 0;
        PyErr_SetString(PyExc_ValueError, "a state of 1 to 64 players");
    }
    Py_CLEAR(r->vals);  /* (no rt_end follows a failed open) */
    Py_CLEAR(r->zones);
    return -1;
}

static int rt_begin(R *r, PyObject *st, PyObject *env) {
    if (rt_open(r, st, env) < 0) return -1;
    PyObject *b = rt_attr(st, CSI_budget, S_budget);
    if (!b) return -1;
    r->budget = PyLong_AsLongLong(b);
    Py_DECREF(b);
    if (r->budget == -1 && PyErr_Occurred()) return -1;
    return 0;
}

/* Note the spec place of the statement that ran (SITES[r->site]) on an error raised there, unless it has one. */
static void rt_place(R *r, PyObject *ev) {
    if (ev && r->site >= 0 && r->site < PyList_GET_SIZE(SITES) && !PyObject_HasAttr(ev, S_place)) {
        if (PyObject_SetAttr(ev, S_place, PyList_GET_ITEM(SITES, r->site)) < 0) PyErr_Clear();
    }
}

/* Let go of the temporaries a call kept (rt_keep). */
RT_HOT void rt_release(R *r) {
    while (r->nkept > 0) { PyObject *o = r->kept[--r->nkept]; rt_decref(o); }
    Py_CLEAR(r->spill);
}

/* The budget left written back into the int st.budget holds, where nothing but the state holds it (no one can see
 * it change: a run's end then allocates and frees no int), it is of one digit and so is the budget (never one of
 * CPython's shared small ints: those are held by CPython too).  1 if so. */
RT_HOT int rt_budget_kept(R *r) {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    if (!RT_IS_CS(Py_TYPE(r->st))) return 0;
    PyObject *b = CS_SLOT(r->st, CSI_budget);
    if (!b || !PyLong_CheckExact(b) || Py_REFCNT(b) != 1 || Py_SIZE(b) != 1 || r->budget <= 256
        || r->budget >= ((int64_t)1 << PyLong_SHIFT)) return 0;
    ((PyLongObject *)b)->ob_digit[0] = (digit)r->budget;
    return 1;
#else
    (void)r;
    return 0;
#endif
}

/* Write the budget back and free what the call held; ok: 0 for success, -1 for an error. */
static int rt_end(R *r, int ok) {
    PyObject *et = NULL, *ev = NULL, *tb = NULL;
    if (ok < 0) {
        PyErr_Fetch(&et, &ev, &tb);
        PyErr_NormalizeException(&et, &ev, &tb);
        rt_place(r, ev);
    }
    if (!rt_budget_kept(r)) {
        PyObject *b = PyLong_FromLongLong(r->budget);
        if (b) {
            if (rt_set_attr(r->st, CSI_budget, S_budget, b) < 0) PyErr_Clear();
            Py_DECREF(b);
        } else {
            PyErr_Clear();
        }
    }
    rt_release(r);
    Py_CLEAR(r->vals);
    Py_CLEAR(r->zones);
    Py_CLEAR(r->loc);
    Py_CLEAR(r->face_up);
    if (ok < 0) PyErr_Restore(et, ev, tb);
    return ok;
}

/* Keep an object alive until the call returns; a borrowed pointer to it (NULL on error). */
RT_HOT PyObject *rt_keep(R *r, PyObject *o) {
    if (!o) return NULL;
    if (r->nkept > 0 && r->kept[r->nkept - 1] == o) { Py_DECREF(o); return o; }  /* kept already (a table read again) */
    if (r->nkept < RT_KEPT) { r->kept[r->nkept++] = o; return o; }
    if (!r->spill && !(r->spill = PyList_New(0))) { Py_DECREF(o); return NULL; }
    int bad = PyList_Append(r->spill, o);
    Py_DECREF(o);
    return bad ? NULL : o;
}

/* ------------------------------------------------------------------ values */

static inline PyObject *rt_int_obj(int64_t v) {  /* new reference */
    if (v == RT_NONE) return Py_NewRef(Py_None);
    if (v >= 0 && v < 256) return Py_NewRef(PyTuple_GET_ITEM(SMALL_INTS, v));
    return PyLong_FromLongLong(v);
}

static inline PyObject *rt_bool_obj(int64_t v) {
    if (v == RT_NONE) return Py_NewRef(Py_None);
    return Py_NewRef(v ? Py_True : Py_False);
}

static PyObject *rt_key_obj(int table, int64_t v) {
    if (v == RT_NONE) return Py_NewRef(Py_None);
    PyObject *keys = PyTuple_GET_ITEM(KEYS, table);
    if (v < 0 || v >= PyTuple_GET_SIZE(keys)) { PyErr_SetString(PyExc_IndexError, "no such key"); return NULL; }
    return Py_NewRef(PyTuple_GET_ITEM(keys, v));
}

static PyObject *rt_text_obj(int64_t v) {
    if (v == RT_NONE) return Py_NewRef(Py_None);
    if (v < 0 || v >= PyList_GET_SIZE(TEXTS)) { PyErr_SetString(PyExc_IndexError, "no such text"); return NULL; }
    return Py_NewRef(PyList_GET_ITEM(TEXTS, v));
}

/* A number of the language from a Python value (an int or bool; none): an int of one digit (most values) read
 * in place. */
static int rt_int_of_slow(PyObject *o, int64_t *out) {
    if (o == Py_None) { *out = RT_NONE; return 0; }
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o) || PyBool_Check(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) { *out = 0; return 0; }
        if (size == 1) { *out = (int64_t)((PyLongObject *)o)->ob_digit[0]; return 0; }
        if (size == -1) { *out = -(int64_t)((PyLongObject *)o)->ob_digit[0]; return 0; }
    }
#endif
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a number was expected, not %.60s", Py_TYPE(o)->tp_name);
        return -1;
    }
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &over);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (over || v == RT_NONE) return rt_too_large("a number larger than 9223372036854775807");
    *out = v;
    return 0;
}

/* rt_int_of's common case in place: an int of one digit (a small non-negative number, most values). */
RT_HOT int rt_int_of(PyObject *o, int64_t *out) {
#if PY_VERSION_HEX < 0x030C0000
    if (Py_IS_TYPE(o, &PyLong_Type) && Py_SIZE(o) == 1) { *out = (int64_t)((PyLongObject *)o)->ob_digit[0]; return 0; }
#endif
    return rt_int_of_slow(o, out);
}

/* The key objects of the module's entity tables (KEYS: held for the module's life) found by their address: a
 * key read back from a state or a local is most often that very object (rt_key_obj boxes to it), so its index is
 * had without a dict look-up.  Each slot holds the index KEY_IDS gives that object (so a hit answers as the
 * look-up would); anything not found is looked up in KEY_IDS.  The texts of the module known at setup (TEXTS, as
 * held for the module's life: rt_text_obj boxes to them) likewise, under table RT_TEXT_SLOTS, with the index
 * TEXT_IDS gives.  Open addressing, at most half full; made once, at setup, and never changed after. */
#define RT_TEXT_SLOTS (-1)
typedef struct { PyObject *key; int32_t table; int32_t index; } KeySlot;
#define RT_KEY_SLOTS_MAX (1 << 20)
static KeySlot *KEY_SLOTS;
static size_t KEY_MASK;

RT_HOT size_t rt_key_hash(PyObject *o, int table) {
    return (((size_t)(uintptr_t)o >> 4) * 0x9E3779B1u + (size_t)table) & KEY_MASK;
}

/* The index of a key object of a table by its address; -1 if it is not one of the objects in KEY_SLOTS. */
static inline Py_ssize_t rt_key_slot(int table, PyObject *o) {
    if (!KEY_SLOTS) return -1;
    for (size_t h = rt_key_hash(o, table);; h = (h + 1) & KEY_MASK) {
        KeySlot *s = &KEY_SLOTS[h];
        if (s->key == o && s->table == table) return s->index;
        if (!s->key) return -1;
    }
}

/* Fill KEY_SLOTS from KEYS and KEY_IDS (nothing if memory is short or the keys are too many: the look-ups
 * stay). */
static void rt_key_slots_fill(void) {
    Py_ssize_t total = PyList_GET_SIZE(TEXTS);
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(KEYS); t++) total += PyTuple_GET_SIZE(PyTuple_GET_ITEM(KEYS, t));
    size_t size = 16;
    while (size < 2 * (size_t)total) size *= 2;
    if (size > RT_KEY_SLOTS_MAX || PyTuple_GET_SIZE(KEYS) != PyTuple_GET_SIZE(KEY_IDS)) return;
    KeySlot *slots = PyMem_Calloc(size, sizeof(KeySlot));
    if (!slots) { PyErr_Clear(); return; }
    KEY_MASK = size - 1;
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(KEYS); t++) {
        PyObject *keys = PyTuple_GET_ITEM(KEYS, t), *ids = PyTuple_GET_ITEM(KEY_IDS, t);
        if (!PyTuple_Check(keys) || !PyDict_Check(ids)) { PyMem_Free(slots); return; }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(keys); i++) {
            PyObject *k = PyTuple_GET_ITEM(keys, i);
            PyObject *at = PyDict_GetItemWithError(ids, k);
            long long v = at && PyLong_CheckExact(at) ? PyLong_AsLongLong(at) : -1;
            if (v < 0 || v >= PyTuple_GET_SIZE(keys)) { PyErr_Clear(); PyMem_Free(slots); return; }
            size_t h = rt_key_hash(k, (int)t);
            while (slots[h].key && !(slots[h].key == k && slots[h].table == (int32_t)t)) h = (h + 1) & KEY_MASK;
            slots[h].key = k; slots[h].table = (int32_t)t; slots[h].index = (int32_t)v;
        }
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(TEXTS); i++) {
        PyObject *k = PyList_GET_ITEM(TEXTS, i);
        PyObject *at = PyUnicode_CheckExact(k) ? PyDict_GetItemWithError(TEXT_IDS, k) : NULL;
        long long v = at && PyLong_CheckExact(at) ? PyLong_AsLongLong(at) : -1;
        if (v < 0 || v >= PyList_GET_SIZE(TEXTS) || PyList_GET_ITEM(TEXTS, v) != k) { PyErr_Clear(); continue; }
        size_t h = rt_key_hash(k, RT_TEXT_SLOTS);
        while (slots[h].key && !(slots[h].key == k && slots[h].table == RT_TEXT_SLOTS)) h = (h + 1) & KEY_MASK;
        slots[h].key = k; slots[h].table = RT_TEXT_SLOTS; slots[h].index = (int32_t)v;
    }
    KEY_SLOTS = slots;
}

static int rt_key_of(int table, PyObject *o, int64_t *out) {
    if (o == Py_None) { *out = RT_NONE; return 0; }
    Py_ssize_t at = rt_key_slot(table, o);
    if (at >= 0) { *out = at; return 0; }
    PyObject *i = PyDict_GetItemWithError(PyTuple_GET_ITEM(KEY_IDS, table), o);
    if (!i) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "%R is no key the C back end knows", o);
        return -1;
    }
    *out = PyLong_AsLongLong(i);
    return 0;
}

static int rt_text_of(PyObject *o, int64_t *out) {
    if (o == Py_None) { *out = RT_NONE; return 0; }
    Py_ssize_t at = rt_key_slot(RT_TEXT_SLOTS, o);
    if (at >= 0) { *out = at; return 0; }
    if (!PyUnicode_Check(o)) { PyErr_SetString(PyExc_TypeError, "a text was expected"); return -1; }
    PyObject *i = PyDict_GetItemWithError(TEXT_IDS, o);
    if (i) { *out = PyLong_AsLongLong(i); return 0; }
    if (PyErr_Occurred()) return -1;
    Py_ssize_t k = PyList_GET_SIZE(TEXTS);
    if (k >= 1000000) return rt_too_large("more than 1000000 distinct texts in one process");
    PyObject *ko = PyLong_FromSsize_t(k);
    if (!ko) return -1;
    int bad = PyDict_SetItem(TEXT_IDS, o, ko) < 0 || PyList_Append(TEXTS, o) < 0;
    Py_DECREF(ko);
    if (bad) return -1;
    *out = k;
    return 0;
}

/* ------------------------------------------------------------- arithmetic */

static int rt_overflow(__int128 v) {
    char buf[64];
    int neg = v < 0;
    unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    char digits[48];
    int k = 0;
    do { digits[k++] = (char)('0' + (int)(u % 10)); u /= 10; } while (u && k < 47);
    int j = 0;
    if (neg) buf[j++] = '-';
    while (k) buf[j++] = digits[--k];
    buf[j] = 0;
    char msg[128];
    snprintf(msg, sizeof msg, "a number larger than 9223372036854775807: %s", buf);
    return rt_too_large(msg);
}

static int rt_none_operand(const char *op, int64_t a, int64_t b) {
    PyErr_Format(PyExc_TypeError, "unsupported operand type(s) for %s: '%s' and '%s'", op,
                 a == RT_NONE ? "NoneType" : "int", b == RT_NONE ? "NoneType" : "int");
    return -1;
}

static inline int rt_add(int64_t a, int64_t b, int64_t *out) {
    if (a == RT_NONE || b == RT_NONE) return rt_none_operand("+", a, b);
    __int128 v = (__int128)a + b;
    if (v > RT_MAX_INT || v < -RT_MAX_INT) return rt_overflow(v);
    *out = (int64_t)v;
    return 0;
}

static inline int rt_sub(int64_t a, int64_t b, int64_t *out) {
    if (a == RT_NONE || b == RT_NONE) return rt_none_operand("-", a, b);
    __int128 v = (__int128)a - b;
    if (v > RT_MAX_INT || v < -RT_MAX_INT) return rt_overflow(v);
    *out = (int64_t)v;
    return 0;
}

static inline int rt_mul(int64_t a, int64_t b, int64_t *out) {
    if (a == RT_NONE || b == RT_NONE) return rt_none_operand("*", a, b);
    __int128 v = (__int128)a * b;
    if (v > RT_MAX_INT || v < -RT_MAX_INT) return rt_too_large("a product larger than 9223372036854775807");
    *out = (int64_t)v;
    return 0;
}

static inline int rt_floordiv(int64_t a, int64_t b, int64_t *out) {
    if (a == RT_NONE || b == RT_NONE) return rt_none_operand("//", a, b);
    if (b == 0) { PyErr_SetString(PyExc_ZeroDivisionError, "integer division or modulo by zero"); return -1; }
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    *out = q;
    return 0;
}

static inline int rt_mod(int64_t a, int64_t b, int64_t *out) {
    if (a == RT_NONE || b == RT_NONE) return rt_none_operand("%", a, b);
    if (b == 0) { PyErr_SetString(PyExc_ZeroDivisionError, "integer modulo by zero"); return -1; }
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    *out = m;
    return 0;
}

static inline int rt_neg(int64_t a, int64_t *out) {
    if (a == RT_NONE) {
        PyErr_SetString(PyExc_TypeError, "bad operand type for unary -: 'NoneType'");
        return -1;
    }
    *out = -a;
    return 0;
}

/* The error of an order (<, <=, >, >=) of two numbers where one is none (0 if neither is: nothing to say). */
static int rt_order(const char *op, int64_t a, int64_t b) {
    if (a == RT_NONE || b == RT_NONE) {
        PyErr_Format(PyExc_TypeError, "'%s' not supported between instances of '%s' and '%s'", op,
                     a == RT_NONE ? "NoneType" : "int", b == RT_NONE ? "NoneType" : "int");
        return -1;
    }
    return 0;
}

/* Python's `%` of a player number by the player count (next / prev). */
RT_HOT int64_t rt_seat(int64_t v, int64_t n) {
    int64_t m = v % n;
    return m < 0 ? m + n : m;
}

/* ----------------------------------------------------------------- tables */

/* The tables a state's st.vals or st.zones held under a name, found last (the name held): while that dict is
 * the very one, unchanged (CPython's dict version tag: a new dict or any change gets a new one), its entry is
 * found again without a look-up.  The owner is compared by address only, never dereferenced. */
typedef struct { PyObject *owner; uint64_t tag; PyObject *name; PyObject *table; } TableSlot;
#define RT_TABLE_SLOTS 128
static TableSlot TABLE_SLOTS[RT_TABLE_SLOTS];

#if PY_VERSION_HEX < 0x030C0000
#define RT_DICT_TAG(d) (((PyDictObject *)(d))->ma_version_tag)
#define RT_MIRRORS 1
#else
#define RT_DICT_TAG(d) ((uint64_t)0)
#define RT_MIRRORS 0
#endif

/* owner[name] (borrowed), a KeyError naming the name if it is missing. */
static PyObject *rt_named(PyObject *owner, PyObject *name) {
    TableSlot *s = &TABLE_SLOTS[((uintptr_t)name >> 4) % RT_TABLE_SLOTS];
    int exact = RT_MIRRORS && PyDict_CheckExact(owner);
    if (exact && s->owner == owner && s->name == name && s->tag == RT_DICT_TAG(owner)) return s->table;
    PyObject *t = PyDict_GetItemWithError(owner, name);
    if (!t) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, name);
        return NULL;
    }
    if (exact) {
        Py_XSETREF(s->name, Py_NewRef(name));
        s->owner = owner; s->tag = RT_DICT_TAG(owner); s->table = t;
    }
    return t;
}

/* st.vals[name] (borrowed); st.vals read once per call. */
static PyObject *rt_table(R *r, PyObject *name) {
    if (!r->vals && !(r->vals = rt_attr(r->st, CSI_vals, S_vals))) return NULL;
    return rt_named(r->vals, name);
}

static PyObject *rt_zone_table(R *r, PyObject *name) {
    if (!r->zones && !(r->zones = rt_attr(r->st, CSI_zones, S_zones))) return NULL;
    return rt_named(r->zones, name);
}

/* st.used[name] (borrowed: held by the state while no Python code runs), the set of keys a limit has used. */
static PyObject *rt_limit(R *r, PyObject *name) {
    PyObject *u = rt_attr(r->st, CSI_used, S_used);
    if (!u) return NULL;
    Py_DECREF(u);  /* (the state holds it) */
    if (!PyDict_Check(u)) { PyErr_SetString(PyExc_TypeError, "a state's used limits are a dict"); return NULL; }
    PyObject *s = rt_named(u, name);
    if (s && !PyAnySet_Check(s)) { PyErr_SetString(PyExc_TypeError, "a limit's used keys are a set"); return NULL; }
    return s;
}

/* d[key] (borrowed), a KeyError naming the key if it is missing; steals the key reference. */
static PyObject *rt_get(PyObject *d, PyObject *key) {
    if (!key) return NULL;
    if (!PyDict_Check(d)) { Py_DECREF(key); PyErr_SetString(PyExc_TypeError, "not a table"); return NULL; }
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (!v && !PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, key);
    Py_DECREF(key);
    return v;
}

/* ------------------------------------------------------------ zones by place
 * A zone's list of pieces found by its place, the zone's name and key (the objects of a place tuple in st.loc, or
 * those the generated code names), remembered in a table of slots by the two objects' addresses (each held by its
 * slot): found again without a look-up while st.zones and the zone's dict are the very ones, unchanged (their
 * version tags: a new dict or any change gets a new one; a zone's list is changed in place, its dict never is).
 * A slot also keeps the place tuple (name, key) that State.move_piece makes, for every piece moved there (a tuple
 * of the very same objects: equal, immutable, plain data as Python's).  The dicts are compared by address only
 * until their tags match.  Only with dict version tags (RT_MIRRORS). */
typedef struct {
    PyObject *zname, *zkey;               /* (owned) */
    PyObject *place;                      /* (zname, zkey), made when a piece is first moved there (owned), or NULL */
    PyObject *zones; uint64_t zones_tag;  /* st.zones as it was when found */
    PyObject *table; uint64_t table_tag;  /* zones[zname] (alive while zones is unchanged), as it was */
    PyObject *list;                       /* table[zkey] (alive while table is unchanged) */
} ZoneSlot;
#define RT_ZONE_BITS 8
static ZoneSlot ZONE_SLOTS[1 << RT_ZONE_BITS];

RT_HOT ZoneSlot *rt_zone_slot(PyObject *zname, PyObject *zkey) {
    uint64_t h = ((uint64_t)(uintptr_t)zname ^ ((uint64_t)(uintptr_t)zkey << 7)) * 0x9E3779B97F4A7C15ULL;
    return &ZONE_SLOTS[h >> (64 - RT_ZONE_BITS)];
}

/* Whether slot s holds the zone (zname, zkey) of r's st.zones (read, an exact dict) as it is now. */
RT_HOT int rt_zone_slot_live(R *r, ZoneSlot *s, PyObject *zname, PyObject *zkey) {
    return RT_MIRRORS && s->zname == zname && s->zkey == zkey && s->zones == r->zones
           && s->zones_tag == RT_DICT_TAG(r->zones) && s->table_tag == RT_DICT_TAG(s->table);
}

/* Remember in its slot that zones[zname] is the dict t and t[zkey] the list z (none of them changed since). */
static void rt_zone_slot_fill(ZoneSlot *s, PyObject *zones, PyObject *zname, PyObject *zkey, PyObject *t, PyObject *z) {
    if (!RT_MIRRORS) return;
    if (s->zname != zname || s->zkey != zkey) {
        PyObject *n = s->zname, *k = s->zkey, *pl = s->place;
        s->zname = Py_NewRef(zname); s->zkey = Py_NewRef(zkey); s->place = NULL;
        Py_XDECREF(n); Py_XDECREF(k); Py_XDECREF(pl);  /* (no Python code: names, keys, tuples of them) */
    }
    s->zones = zones; s->zones_tag = RT_DICT_TAG(zones);
    s->table = t; s->table_tag = RT_DICT_TAG(t);
    s->list = z;
}

static PyObject *rt_zone_quiet_slow(R *r, PyObject *zname, PyObject *zkey, ZoneSlot *s) {
    if (!r->zones && !(r->zones = rt_attr(r->st, CSI_zones, S_zones))) { PyErr_Clear(); return NULL; }
    if (!PyDict_CheckExact(r->zones)) return NULL;
    if (rt_zone_slot_live(r, s, zname, zkey)) return s->list;
    PyObject *t = PyDict_GetItemWithError(r->zones, zname);
    PyObject *z = t && PyDict_CheckExact(t) ? PyDict_GetItemWithError(t, zkey) : NULL;
    if (PyErr_Occurred()) PyErr_Clear();
    if (!z || !PyList_CheckExact(z)) return NULL;
    rt_zone_slot_fill(s, r->zones, zname, zkey, t, z);
    return z;
}

/* A zone's list of pieces by a place's zone name and key (borrowed; its slot in *slot), with no error set: NULL if
 * it is not there as State holds it. */
RT_HOT PyObject *rt_zone_quiet(R *r, PyObject *zname, PyObject *zkey, ZoneSlot **slot) {
    ZoneSlot *s = *slot = rt_zone_slot(zname, zkey);
    if (r->zones && PyDict_CheckExact(r->zones) && rt_zone_slot_live(r, s, zname, zkey)) return s->list;
    return rt_zone_quiet_slow(r, zname, zkey, s);
}

/* The place tuple (zname, zkey) (a new reference), the one its slot s keeps (made once); NULL with an error set. */
static PyObject *rt_zone_place(ZoneSlot *s, PyObject *zname, PyObject *zkey) {
    if (RT_MIRRORS && s->zname == zname && s->zkey == zkey) {
        if (!s->place && !(s->place = PyTuple_Pack(2, zname, zkey))) return NULL;
        return Py_NewRef(s->place);
    }
    return PyTuple_Pack(2, zname, zkey);
}

/* A zone's live list of pieces (borrowed); steals the key reference.  Found by its slot (see "zones by place")
 * while the state's zones are as they were, else looked up (and remembered). */
static PyObject *rt_zone(R *r, PyObject *name, PyObject *key) {
    if (RT_MIRRORS && key && r->zones && PyDict_CheckExact(r->zones)) {
        ZoneSlot *s = rt_zone_slot(name, key);
        if (rt_zone_slot_live(r, s, name, key)) { rt_decref(key); return s->list; }
    }
    PyObject *t = rt_zone_table(r, name);
    if (!t) { Py_XDECREF(key); return NULL; }
    if (RT_MIRRORS && key && PyDict_CheckExact(r->zones) && PyDict_CheckExact(t)) {
        PyObject *z = PyDict_GetItemWithError(t, key);
        if (z && PyList_CheckExact(z)) {
            rt_zone_slot_fill(rt_zone_slot(name, key), r->zones, name, key, t, z);
            rt_decref(key);
            return z;
        }
        PyErr_Clear();  /* (looked up again below, to raise what it raises) */
    }
    PyObject *z = rt_get(t, key);
    if (z && !PyList_Check(z)) { PyErr_SetString(PyExc_TypeError, "a zone is a list"); return NULL; }
    return z;
}

/* A local of the running procedure (borrowed). */
static PyObject *rt_local(R *r, PyObject *name) {
    PyObject *v = PyDict_GetItemWithError(r->env, name);
    if (!v && !PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, name);
    return v;
}

/* Set a local (steals the value). */
static int rt_set_local(R *r, PyObject *name, PyObject *v) {
    if (!v) return -1;
    int bad = PyDict_SetItem(r->env, name, v);
    Py_DECREF(v);
    return bad;
}

/* ------------------------------------------------------------ locals read before
 * The values of locals read (unboxed) from a procedure's env dict, held across calls of the module's functions
 * while that dict is the very one, unchanged (its version tag: a new dict or any change gets a new one): a
 * continuation, the listing after it and the calls it makes read a local once.  Each procedure holds the values
 * of one env at a time (its LocalEnv in the generated module's LD: the env by address only, its tag, and the
 * generation its values were held in), so that running another procedure (a call, a return) lets go of none:
 * a value is held for a local name of a procedure and a way of reading it (the module's slots LS, one per
 * procedure, name and value kind) in its LocalEnv's generation, which moves on (from one counter, LGEN: no two
 * alike) whenever that procedure reads another env, or a change not made by rt_set_local_held.  The module's own
 * writes keep the held values (but the written name's, set or dropped by the generated code).  Only with dict
 * version tags (RT_MIRRORS). */
typedef struct { uint64_t gen; int64_t v; } LocalSlot;
typedef struct { PyObject *env; uint64_t tag, gen; } LocalEnv;
static uint64_t LGEN = 1;

#define RT_LOCAL_HELD(r, d, slot) (RT_MIRRORS && (r)->env == (d).env && (slot).gen == (d).gen \
                                   && RT_DICT_TAG((r)->env) == (d).tag)

/* Hold a value just read from the running procedure's env dict (d: that procedure's LocalEnv). */
static inline void rt_local_held(R *r, LocalEnv *d, LocalSlot *slot, int64_t v) {
    if (!RT_MIRRORS) return;
    uint64_t tag = RT_DICT_TAG(r->env);
    if (r->env != d->env || tag != d->tag) { d->env = r->env; d->tag = tag; d->gen = ++LGEN; }
    slot->gen = d->gen; slot->v = v;
}

/* The generated module's LocalEnvs and slots (set as the module is made): the slots of procedure d are
 * RT_LSQ[RT_LDO[d] .. RT_LDO[d + 1]), of the names RT_LSN (pointers to the module's interned names) alike. */
static LocalEnv *RT_LD;
static int RT_NLD;
static LocalSlot *RT_LS;
static PyObject **const *RT_LSN;
static const int *RT_LSQ, *RT_LDO;

/* The run loop bound a decision's values (names, interned) into the env of procedure d (its index in the program)
 * whose tag was `before`: the values it holds of that env stay held, but those of the names bound (dropped); a
 * name not interned drops them all. */
static void rt_locals_rebound(Py_ssize_t d, PyObject *env, uint64_t before, PyObject *names) {
    if (!RT_MIRRORS || !RT_LD || d < 0 || d >= RT_NLD || !PyTuple_Check(names)) return;
    LocalEnv *e = &RT_LD[d];
    if (e->env != env || e->tag != before) return;
    e->tag = RT_DICT_TAG(env);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(names); k++) {
        PyObject *n = PyTuple_GET_ITEM(names, k);
        if (!PyUnicode_CheckExact(n) || !PyUnicode_CHECK_INTERNED(n)) { e->gen = ++LGEN; return; }
        for (int i = RT_LDO[d]; i < RT_LDO[d + 1]; i++)
            if (*RT_LSN[i] == n) RT_LS[RT_LSQ[i]].gen = 0;
    }
}

/* A new env dict made for a procedure (d: its LocalEnv) by its caller: the values of its parameters are held
 * next (the generated module's LH_ macros), read without the dict by the procedure's first function. */
static inline void rt_local_env_made(LocalEnv *d, PyObject *env) {
    if (!RT_MIRRORS) return;
    d->env = env; d->tag = RT_DICT_TAG(env); d->gen = ++LGEN;
}

/* Set a local (steals the value): 1 if the values the procedure (d) holds for the env stay held (the caller then
 * sets or drops the name's), 0 if none is held, -1 on error. */
static int rt_set_local_held(R *r, LocalEnv *d, PyObject *name, PyObject *v) {
    if (!v) return -1;
    uint64_t before = RT_DICT_TAG(r->env);
    int bad = PyDict_SetItem(r->env, name, v);
    Py_DECREF(v);
    if (bad) return -1;
    if (RT_MIRRORS && r->env == d->env && before == d->tag) { d->tag = RT_DICT_TAG(r->env); return 1; }
    return 0;
}

/* A key of several values (steals each; NULL on error). */
static PyObject *rt_tuple(int n, PyObject **items) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; i < n; i++) {
        if (!items[i] || !t) {
            for (int j = i; j < n; j++) Py_XDECREF(items[j]);
            Py_XDECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, items[i]);
    }
    return t;
}

/* A new list of boxed values (steals each). */
static PyObject *rt_list(int n, PyObject **items) {
    PyObject *l = PyList_New(n);
    for (int i = 0; i < n; i++) {
        if (!items[i] || !l) {
            for (int j = i; j < n; j++) Py_XDECREF(items[j]);
            Py_XDECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, items[i]);
    }
    return l;
}

/* The index of a piece (a Python int) in a zone list; -1 if absent. */
static Py_ssize_t rt_find(PyObject *list, PyObject *item) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(list, i);
        if (x == item) return i;
        int eq = PyObject_RichCompareBool(x, item, Py_EQ);
        if (eq < 0) return -2;
        if (eq) return i;
    }
    return -1;
}

/* The piece at a 1-based position of a zone (builtin `piece`), as Python's list indexing does. */
static int rt_piece_at(PyObject *zone, int64_t pos, int64_t *out) {
    if (pos == RT_NONE) { PyErr_SetString(PyExc_TypeError, "'<' not supported between instances of 'NoneType' and 'int'"); return -1; }
    if (pos < 1) { PyErr_Format(PyExc_IndexError, "position %lld is not 1 or more", (long long)pos); return -1; }
    if (pos - 1 >= PyList_GET_SIZE(zone)) { PyErr_SetString(PyExc_IndexError, "list index out of range"); return -1; }
    return rt_int_of(PyList_GET_ITEM(zone, pos - 1), out);
}

/* Whether the state keeps a log (st.log is not None), read in place; -1 with an error set. */
static inline int rt_log_on(R *r) {
    if (RT_IS_CS(Py_TYPE(r->st))) { PyObject *v = CS_SLOT(r->st, CSI_log); if (v) return v != Py_None; }
    PyObject *lg = PyObject_GetAttr(r->st, S_log);
    if (!lg) return -1;
    int on = lg != Py_None;
    Py_DECREF(lg);
    return on;
}

/* The sets a scope's beginning clears, found last for a scope (its name held; by the name's address): while the
 * state's scope_limits and used dicts are the very ones, unchanged (their tags: the scope's list of limits and the
 * sets are the same objects, alive) and that list holds the same names (held), they are the same sets (changed
 * in place only: used's tag stays). */
#define RT_SCOPE_SETS 8
typedef struct {
    PyObject *scope;                     /* (owned) */
    PyObject *limits, *used, *names;     /* by address: names is limits[scope] */
    uint64_t limits_tag, used_tag;
    Py_ssize_t n;                        /* the limits' names (owned) and their sets (borrowed from used) */
    PyObject *name[RT_SCOPE_SETS], *set[RT_SCOPE_SETS];
} ScopeSlot;
#define RT_SCOPE_SLOTS 16
static ScopeSlot SCOPE_SLOTS[RT_SCOPE_SLOTS];

/* The slot of a scope holding its sets as they are now in these dicts, or NULL. */
static ScopeSlot *rt_scope_live(PyObject *scope, PyObject *limits, PyObject *used) {
    ScopeSlot *s = &SCOPE_SLOTS[((uintptr_t)scope >> 4) % RT_SCOPE_SLOTS];
    if (!RT_MIRRORS || s->scope != scope || s->limits != limits || s->limits_tag != RT_DICT_TAG(limits)
        || s->used != used || s->used_tag != RT_DICT_TAG(used) || PyList_GET_SIZE(s->names) != s->n) return NULL;
    for (Py_ssize_t i = 0; i < s->n; i++)
        if (PyList_GET_ITEM(s->names, i) != s->name[i]) return NULL;
    return s;
}

/* Remember the sets (found) of a scope's limits (names, a list of n of them, just read from the dicts). */
static void rt_scope_found(PyObject *scope, PyObject *limits, PyObject *used, PyObject *names, Py_ssize_t n,
                           PyObject **found) {
    ScopeSlot *s = &SCOPE_SLOTS[((uintptr_t)scope >> 4) % RT_SCOPE_SLOTS];
    if (!RT_MIRRORS || !PyList_CheckExact(names) || n > RT_SCOPE_SETS || PyList_GET_SIZE(names) != n) return;
    PyObject *old[RT_SCOPE_SETS + 1];
    Py_ssize_t nold = 0;
    for (Py_ssize_t k = 0; k < s->n; k++) old[nold++] = s->name[k];
    if (s->scope != scope) { old[nold++] = s->scope; s->scope = Py_NewRef(scope); }
    for (Py_ssize_t k = 0; k < n; k++) { s->name[k] = Py_NewRef(PyList_GET_ITEM(names, k)); s->set[k] = found[k]; }
    s->n = n; s->names = names;
    s->limits = limits; s->limits_tag = RT_DICT_TAG(limits);
    s->used = used; s->used_tag = RT_DICT_TAG(used);
    while (nold > 0) Py_XDECREF(old[--nold]);  /* (names: no Python code) */
}

/* State.begin_scope(scope): each used[limit] of scope_limits.get(scope, ()) cleared, in C where the state's data
 * is of the kinds State holds; else (or on any surprise: clearing twice changes nothing) by the method. */
static int rt_begin_scope(R *r, PyObject *scope) {
    if (RT_IS_CS(Py_TYPE(r->st))) {
        PyObject *limits = CS_SLOT(r->st, CSI_scope_limits), *used = CS_SLOT(r->st, CSI_used);
        if (limits && used && PyDict_CheckExact(limits) && PyDict_CheckExact(used)) {
            ScopeSlot *slot = rt_scope_live(scope, limits, used);
            if (slot) {  /* (clearing a set runs no Python code: its items are names and keys) */
                for (Py_ssize_t i = 0; i < slot->n; i++)
                    if (PySet_GET_SIZE(slot->set[i]) > 0 && PySet_Clear(slot->set[i]) < 0) return -1;
                return 0;
            }
            PyObject *names = PyDict_GetItemWithError(limits, scope);
            if (!names) {
                if (!PyErr_Occurred()) return 0;
                PyErr_Clear();
            } else if (PyList_CheckExact(names) || PyTuple_CheckExact(names)) {
                Py_INCREF(names);
                Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(names);
                PyObject *found[RT_SCOPE_SETS];
                for (; i < n; i++) {
                    PyObject *s = PyDict_GetItemWithError(used, PySequence_Fast_GET_ITEM(names, i));
                    if (!s || !PySet_CheckExact(s)) break;
                    if (PySet_GET_SIZE(s) > 0 && PySet_Clear(s) < 0) break;
                    if (i < RT_SCOPE_SETS) found[i] = s;
                    n = PySequence_Fast_GET_SIZE(names);  /* (no Python code runs above; be sure all the same) */
                }
                if (i == n && !PyErr_Occurred()) {
                    rt_scope_found(scope, limits, used, names, n, found);  /* remembered for the next time */
                    Py_DECREF(names);
                    return 0;
                }
                Py_DECREF(names);
                PyErr_Clear();
            }
        }
    }
    PyObject *res = PyObject_CallMethodOneArg(r->st, S_begin_scope, scope);
    if (!res) return -1;
    Py_DECREF(res);
    return 0;
}

/* The index of a piece in a zone's list (as list.index finds it); -1 if it is not there (no error set). */
static Py_ssize_t rt_find_quiet(PyObject *list, int64_t piece) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (piece >= 0 && piece < 256) {  /* most often the list holds the very object: found by its address */
        PyObject *want = PyTuple_GET_ITEM(SMALL_INTS, piece);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *x = PyList_GET_ITEM(list, i);
            if (x == want) return i;
            if (!PyLong_CheckExact(x)) return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(list, i);
        if (!PyLong_CheckExact(x)) return -1;
        int over = 0;
        long long v = PyLong_AsLongLongAndOverflow(x, &over);
        if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); return -1; }
        if (!over && v == piece) return i;
    }
    return -1;
}

/* State.move_piece(piece, zone, key): the piece moved to the end of a zone, face down there if the zone is hidden;
 * in C where the state's data is of the kinds State holds (nothing is changed before all is found), else by the
 * method, which raises what Python raises.  Steals the key reference. */
static int rt_move(R *r, int64_t piece, PyObject *zname, PyObject *zkey, int hidden) {
    if (!zkey) return -1;
    if (RT_IS_CS(Py_TYPE(r->st)) && (r->loc || (r->loc = rt_attr(r->st, CSI_loc, S_loc)))
        && (r->face_up || (r->face_up = rt_attr(r->st, CSI_face_up, S_face_up)))) {
        PyObject *loc = r->loc, *face_up = r->face_up;
        if (PyList_CheckExact(loc) && PyList_CheckExact(face_up) && piece >= 0 && piece < PyList_GET_SIZE(loc)
            && piece < PyList_GET_SIZE(face_up)) {
            PyObject *old = PyList_GET_ITEM(loc, piece);
            ZoneSlot *from = NULL, *to = NULL;
            PyObject *source = PyTuple_CheckExact(old) && PyTuple_GET_SIZE(old) == 2
                               ? rt_zone_quiet(r, PyTuple_GET_ITEM(old, 0), PyTuple_GET_ITEM(old, 1), &from) : NULL;
            PyObject *target = source ? rt_zone_quiet(r, zname, zkey, &to) : NULL;
            Py_ssize_t at = target ? rt_find_quiet(source, piece) : -1;
            if (at >= 0) {
                PyObject *p = PyList_GET_ITEM(source, at);
                PyObject *place = PyTuple_GET_ITEM(old, 0) == zname && PyTuple_GET_ITEM(old, 1) == zkey
                                  ? Py_NewRef(old) : rt_zone_place(to, zname, zkey);
                Py_DECREF(zkey);
                if (!place) return -1;
                /* source.remove(p): its reference is ours now (the list keeps its room, as list.remove may) */
                Py_ssize_t n = PyList_GET_SIZE(source);
                PyObject **items = ((PyListObject *)source)->ob_item;
                memmove(items + at, items + at + 1, sizeof(PyObject *) * (size_t)(n - at - 1));
                Py_SET_SIZE(source, n - 1);
                int bad = PyList_Append(target, p);
                Py_DECREF(p);
                if (bad < 0) { Py_DECREF(place); return -1; }
                PyList_SetItem(loc, piece, place);  /* steals place */
                PyList_SetItem(face_up, piece, Py_NewRef(hidden ? Py_False : Py_True));
                return 0;
            }
        }
    }
    if (PyErr_Occurred()) { Py_DECREF(zkey); return -1; }
    PyObject *x = rt_int_obj(piece);
    PyObject *res = x ? PyObject_CallMethodObjArgs(r->st, S_move_piece, x, zname, zkey, NULL) : NULL;
    Py_XDECREF(x); Py_DECREF(zkey);
    if (!res) return -1;
    Py_DECREF(res);
    return 0;
}

/* State.swap_pieces(a, b): the places of two pieces exchanged, in C where the state's data is of the kinds State
 * holds (nothing is changed before all is found); else by the method, which raises what Python raises. */
static int rt_swap(R *r, int64_t a, int64_t b) {
    if (!r->loc && !(r->loc = rt_attr(r->st, CSI_loc, S_loc))) return -1;
    PyObject *loc = r->loc;
    if (RT_IS_CS(Py_TYPE(r->st)) && PyList_CheckExact(loc) && a >= 0 && b >= 0 && a < PyList_GET_SIZE(loc)
        && b < PyList_GET_SIZE(loc)) {
        PyObject *ta = PyList_GET_ITEM(loc, a), *tb = PyList_GET_ITEM(loc, b);
        if (PyTuple_CheckExact(ta) && PyTuple_GET_SIZE(ta) == 2 && PyTuple_CheckExact(tb) && PyTuple_GET_SIZE(tb) == 2) {
            ZoneSlot *sa = NULL, *sb = NULL;
            PyObject *la = rt_zone_quiet(r, PyTuple_GET_ITEM(ta, 0), PyTuple_GET_ITEM(ta, 1), &sa);
            PyObject *lb = la ? rt_zone_quiet(r, PyTuple_GET_ITEM(tb, 0), PyTuple_GET_ITEM(tb, 1), &sb) : NULL;
            Py_ssize_t ia = la ? rt_find_quiet(la, a) : -1, ib = lb ? rt_find_quiet(lb, b) : -1;
            if (ia >= 0 && ib >= 0) {
                /* la[ia], lb[ib] = b, a; loc[a], loc[b] = loc[b], loc[a] */
                PyObject *pa = PyList_GET_ITEM(la, ia), *pb = PyList_GET_ITEM(lb, ib);
                Py_INCREF(pa); Py_INCREF(pb); Py_INCREF(ta); Py_INCREF(tb);
                PyList_SetItem(la, ia, pb);
                PyList_SetItem(lb, ib, pa);
                PyList_SetItem(loc, a, tb);
                PyList_SetItem(loc, b, ta);
                return 0;
            }
        }
    }
    PyObject *x = rt_int_obj(a), *y = rt_int_obj(b);
    PyObject *res = x && y ? PyObject_CallMethodObjArgs(r->st, S_swap_pieces, x, y, NULL) : NULL;
    Py_XDECREF(x); Py_XDECREF(y);
    if (!res) return -1;
    Py_DECREF(res);
    return 0;
}

/* A list of the items of a list (a copy to loop over). */
static PyObject *rt_copy(R *r, PyObject *list) {
    if (!PyList_Check(list)) { PyErr_SetString(PyExc_TypeError, "a list was expected"); return NULL; }
    return rt_keep(r, PyList_GetSlice(list, 0, PyList_GET_SIZE(list)));
}

/* How many numbers a .. b holds (0 if none), bounded for the range a list may hold. */
static int rt_range_count_slow(int64_t a, int64_t b, int kept, int64_t *out) {
    if (a == RT_NONE || b == RT_NONE) return rt_none_operand("+", a, b);
    __int128 n = (__int128)b - a + 1;
    if (n < 0) n = 0;
    if (kept && n > RT_MAX_RANGE) {
        char msg[160];
        snprintf(msg, sizeof msg, "the range %lld .. %lld holds more than 1000000 numbers", (long long)a, (long long)b);
        return rt_too_large(msg);
    }
    *out = n > RT_STEP_LIMIT * 8 ? RT_STEP_LIMIT * 8 : (int64_t)n;
    return 0;
}

/* rt_range_count's common case in place: two numbers near zero (none is far from it) a short range apart. */
RT_HOT int rt_range_count(int64_t a, int64_t b, int kept, int64_t *out) {
    if (a > -(INT64_C(1) << 40) && a < (INT64_C(1) << 40) && b > -(INT64_C(1) << 40) && b < (INT64_C(1) << 40)) {
        int64_t n = b - a + 1;
        if (n <= 0) { *out = 0; return 0; }
        if (n <= RT_MAX_RANGE && n <= RT_STEP_LIMIT * 8) { *out = n; return 0; }
    }
    return rt_range_count_slow(a, b, kept, out);
}

/* Call a Python runtime object (a class or function) with some arguments. */
#define RT_CALL(fn, ...) PyObject_CallFunctionObjArgs((fn), __VA_ARGS__, NULL)

/* A Pending (interpreter.compiler.Pending: an attrs class with slots) made as its __init__ makes it, its
 * fields set in place: where the class is as expected (its fields, in this order, each a slot), found once. */
#define RT_PENDING_FIELDS 7
static Py_ssize_t PENDING_AT[RT_PENDING_FIELDS];
static int PENDING_FAST;

static void rt_pending_layout(void) {
    static const char *fields[RT_PENDING_FIELDS] = {"decision", "player", "options", "texts", "by_text", "by_option",
                                                    "admitted"};
    PENDING_FAST = 0;
    if (!PyType_Check(PENDING)) return;
    PyTypeObject *t = (PyTypeObject *)PENDING;
    int members = 0;
    for (PyMemberDef *m = t->tp_members; m && m->name; m++) members++;
    if (members != RT_PENDING_FIELDS || t->tp_dictoffset != 0) return;
    for (int i = 0; i < RT_PENDING_FIELDS; i++) {
        PyObject *d = PyObject_GetAttrString(PENDING, fields[i]);
        if (!d) { PyErr_Clear(); return; }
        int ok = Py_TYPE(d) == &PyMemberDescr_Type && ((PyMemberDescrObject *)d)->d_common.d_type == t
                 && ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok) PENDING_AT[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
        if (!ok || PENDING_AT[i] < (Py_ssize_t)sizeof(PyObject) || PENDING_AT[i] > t->tp_basicsize - (Py_ssize_t)sizeof(PyObject *))
            return;
    }
    PENDING_FAST = 1;
}

/* p.<field> (a new reference; k its index in the fields above), read in place where p is a Pending as expected. */
RT_HOT PyObject *rt_pending_attr(PyObject *p, int k, PyObject *name) {
    if (PENDING_FAST && Py_TYPE(p) == (PyTypeObject *)PENDING) {
        PyObject *v = *(PyObject **)((char *)p + PENDING_AT[k]);
        if (v) return Py_NewRef(v);
    }
    return PyObject_GetAttr(p, name);
}

/* A Pending the state let go of while nothing else held it (see rt_advance_py), kept for the next decision, which
 * then allocates no Pending: its fields are replaced then (one at most; owned; nobody else sees it). */
static PyObject *PENDING_SPARE;

/* Keep p (a reference passed in) as the spare where it is a Pending as expected that nothing else holds and
 * nothing refers to weakly.  1 if it was taken. */
static int rt_pending_spare(PyObject *p) {
    PyTypeObject *t = (PyTypeObject *)PENDING;
    if (PENDING_SPARE || !PENDING_FAST || Py_TYPE(p) != t || Py_REFCNT(p) != 1) return 0;
    if (t->tp_weaklistoffset > 0 && *(PyObject **)((char *)p + t->tp_weaklistoffset)) return 0;
    PENDING_SPARE = p;  /* (its fields are let go of when it is made the next decision's: seen by nobody till then) */
    return 1;
}

static PyObject *rt_pending_new(PyObject *decision, PyObject *who, PyObject *made) {
    if (!PENDING_FAST) return RT_CALL(PENDING, decision, who, made);
    PyTypeObject *t = (PyTypeObject *)PENDING;
    PyObject *vals[RT_PENDING_FIELDS] = {decision, who, made, Py_None, Py_None, Py_None, Py_None};
    PyObject *p = PENDING_SPARE, *old[RT_PENDING_FIELDS];
    if (p) {
        PENDING_SPARE = NULL;
        int nold = 0;
#define RT_PENDING_SET(i, v) do { PyObject **at_ = (PyObject **)((char *)p + PENDING_AT[i]); \
                                  if (*at_ != (v)) { old[nold++] = *at_; *at_ = Py_NewRef(v); } } while (0)
        RT_PENDING_SET(0, decision); RT_PENDING_SET(1, who); RT_PENDING_SET(2, made);  /* (a field None before and */
        RT_PENDING_SET(3, Py_None); RT_PENDING_SET(4, Py_None);                      /* after is left as it is) */
        RT_PENDING_SET(5, Py_None); RT_PENDING_SET(6, Py_None);
#undef RT_PENDING_SET
        _Static_assert(RT_PENDING_FIELDS == 7, "a field set above for each");
        /* the last decision's fields let go of once p is whole (the options go back to the free list) */
        while (nold > 0) rt_xdecref(old[--nold]);
        return p;
    }
    if (!(p = t->tp_alloc(t, 0))) return NULL;
    for (int i = 0; i < RT_PENDING_FIELDS; i++) *(PyObject **)((char *)p + PENDING_AT[i]) = Py_NewRef(vals[i]);
    return p;
}

static PyTypeObject OptionsType;
static PyTypeObject ProgramType;
static int rt_setup_common(PyObject *args) {
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!OOOO", &PyList_Type, &SITES, &PyList_Type, &TEXTS, &PyDict_Type, &TEXT_IDS,
                          &PyTuple_Type, &KEYS, &PyTuple_Type, &KEY_IDS, &STUCK, &TOO_LARGE, &VALUES, &PENDING))
        return -1;
    Py_INCREF(SITES); Py_INCREF(TEXTS); Py_INCREF(TEXT_IDS); Py_INCREF(KEYS); Py_INCREF(KEY_IDS);
    Py_INCREF(STUCK); Py_INCREF(TOO_LARGE); Py_INCREF(VALUES); Py_INCREF(PENDING);
    rt_pending_layout();
    S_budget = PyUnicode_InternFromString("budget");
    S_frames = PyUnicode_InternFromString("frames");
    S_pending = PyUnicode_InternFromString("pending");
    S_options = PyUnicode_InternFromString("options");
    S_log = PyUnicode_InternFromString("log");
    S_check_invariants = PyUnicode_InternFromString("check_invariants");
    S_decision = PyUnicode_InternFromString("decision");
    S_texts = PyUnicode_InternFromString("texts");
    S_history = PyUnicode_InternFromString("_history");
    S_trail = PyUnicode_InternFromString("trail");
    S_rng = PyUnicode_InternFromString("rng");
    S_lazy = PyUnicode_InternFromString("lazy");
    S_vals = PyUnicode_InternFromString("vals");
    S_zones = PyUnicode_InternFromString("zones");
    S_loc = PyUnicode_InternFromString("loc");
    S_face_up = PyUnicode_InternFromString("face_up");
    S_n = PyUnicode_InternFromString("n");
    S_seen = PyUnicode_InternFromString("seen");
    S_used = PyUnicode_InternFromString("used");
    S_begin_scope = PyUnicode_InternFromString("begin_scope");
    S_swap_pieces = PyUnicode_InternFromString("swap_pieces");
    S_move_piece = PyUnicode_InternFromString("move_piece");
    S_place = PyUnicode_InternFromString("rules_place");
    S_world = PyUnicode_InternFromString("world");
    S_nodes = PyUnicode_InternFromString("nodes");
    S_adjacent = PyUnicode_InternFromString("adjacent");
    if (PyType_Ready(&OptionsType) < 0 || PyType_Ready(&ProgramType) < 0) return -1;
    SMALL_INTS = PyTuple_New(256);
    if (!SMALL_INTS) return -1;
    for (int i = 0; i < 256; i++) {
        PyObject *o = PyLong_FromLong(i);
        if (!o) return -1;
        PyTuple_SET_ITEM(SMALL_INTS, i, o);
    }
    rt_key_slots_fill();
    return 0;
}

/* ----------------------------------------------------- mirrors of tables
 * A counter's or var's table (a dict keyed by None, a value or a tuple) read as an array of int64,
 * made again whenever the dict is another one or was changed (CPython's dict version tag), and kept
 * up to date by the generated code's own writes.  A table that cannot be mirrored (a key or value
 * C does not hold) is read through the dict, as before.  Zones likewise: an array of the lists of
 * pieces of a zone's keys (the lists are changed in place; the dict of a zone never is). */

typedef struct Mirror {
    PyObject *owner;    /* st.vals or st.zones the table was found in (identity only), and its tag */
    uint64_t owner_tag;
    PyObject *table;    /* the table found there (borrowed: valid while the owner is unchanged) */
    PyObject *dict;     /* identity only (never dereferenced unless it is the state's current dict) */
    uint64_t tag;
    Py_ssize_t size;
    int off;            /* this dict cannot be mirrored */
    int64_t *vals;      /* tables */
    PyObject **lists;   /* zones (borrowed from the dict) */
    /* the keys of the dict last mirrored, in its order (owned), and each one's flat index: a copy of that
     * dict (a cloned state's) has the same keys in the same order, found again without a lookup */
    PyObject **order;
    Py_ssize_t *order_at;
    Py_ssize_t norder;
    int64_t order_n;    /* the players of the state whose dict that was (a seat key's index depends on it) */
    Py_ssize_t len;     /* the values in vals when it mirrors a dict (off == 0), and the players then */
    int64_t n;
    /* the values of a dict that was cloned (its identity and tag, the players: saved_len values), and the
     * clone's dict made from it (identity and tag): while both are unchanged the clone's dict is mirrored by
     * copying them, not by a walk over it (perft and a search clone one state again and again) */
    int64_t *saved;
    Py_ssize_t saved_cap, saved_len;
    PyObject *saved_dict;
    uint64_t saved_tag;
    int64_t saved_n;
    PyObject *twin, *twin_of;
    uint64_t twin_tag, twin_of_tag;
    /* tables: per flat index the key the dict holds there (owned: an equal key of any dict of this table at
     * key_n players), and its hash, found by the walks over the dict (rt_mirror_slow): a write at keys the
     * mirror holds sets the dict's entry by that key and hash, making and hashing no key (rt_mirror_key) */
    PyObject **keyobj;
    Py_hash_t *keyhash;
    Py_ssize_t keycap;
    int64_t key_n;
} Mirror;

/* The module's mirrors of tables (set at its init). */
static Mirror *RT_VM;
static int RT_NVM;

static int64_t RT_MIRROR_OFF_[1];
#define RT_MIRROR_OFF RT_MIRROR_OFF_
static PyObject *RT_ZONES_OFF_[1];
#define RT_ZONES_OFF RT_ZONES_OFF_

/* The index of a key part (dims[i]: -1 a seat, else an entity table); -1 if it is none of them. */
static Py_ssize_t rt_key_part(int dim, PyObject *k, int64_t n) {
    if (dim < 0) {
        if (!PyLong_CheckExact(k)) return -1;
        long long v = PyLong_AsLongLong(k);
        if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); return -1; }
        return (v >= 0 && v < n) ? (Py_ssize_t)v : -1;
    }
    PyObject *keys = PyTuple_GET_ITEM(KEYS, dim);
    Py_ssize_t at = rt_key_slot(dim, k);
    if (at < 0) {
        PyObject *i = PyDict_GetItemWithError(PyTuple_GET_ITEM(KEY_IDS, dim), k);
        if (!i) { PyErr_Clear(); return -1; }
        at = PyLong_AsSsize_t(i);
    }
    /* 1 and True are equal keys: only the very kind of key the table has */
    if (at < 0 || at >= PyTuple_GET_SIZE(keys) || Py_TYPE(PyTuple_GET_ITEM(keys, at)) != Py_TYPE(k)) return -1;
    return at;
}

static Py_ssize_t rt_dim_size(int dim, int64_t n) {
    return dim < 0 ? (Py_ssize_t)n : PyTuple_GET_SIZE(PyTuple_GET_ITEM(KEYS, dim));
}

/* The flat index of a dict key of a table of these dimensions, -1 if it is not one. */
static Py_ssize_t rt_flat_key(PyObject *key, int ndims, const int *dims, int64_t n) {
    if (ndims == 0) return key == Py_None ? 0 : -1;
    if (ndims == 1) return rt_key_part(dims[0], key, n);
    if (!PyTuple_CheckExact(key) || PyTuple_GET_SIZE(key) != ndims) return -1;
    Py_ssize_t at = 0;
    for (int d = 0; d < ndims; d++) {
        Py_ssize_t part = rt_key_part(dims[d], PyTuple_GET_ITEM(key, d), n);
        if (part < 0) return -1;
        at = at * rt_dim_size(dims[d], n) + part;
    }
    return at;
}

static int rt_unbox_kind(int vkind, PyObject *o, int64_t *out) {
    /* vkind: 0 a number (int, seat, piece), 1 yes/no, 2 a text, 3+t a key of entity table t */
    if (o == Py_None) { *out = RT_NONE; return 0; }
    if (vkind == 0) { if (!PyLong_CheckExact(o)) return -1; return rt_int_of(o, out); }
    if (vkind == 1) { if (o == Py_True) { *out = 1; return 0; } if (o == Py_False) { *out = 0; return 0; } return -1; }
    if (vkind == 2) {  /* only texts known already: a mirror is made without allocating (no other thread runs) */
        Py_ssize_t at = rt_key_slot(RT_TEXT_SLOTS, o);
        if (at >= 0) { *out = at; return 0; }
        if (!PyUnicode_CheckExact(o)) return -1;
        PyObject *i = PyDict_GetItemWithError(TEXT_IDS, o);
        if (!i) return -1;
        *out = PyLong_AsLongLong(i);
        return 0;
    }
    Py_ssize_t at = rt_key_part(vkind - 3, o, 0);
    if (at < 0) return -1;
    *out = at;
    return 0;
}

/* rt_unbox_kind, with a number of one digit (most counters' values) and none read in place. */
static inline int rt_unbox_mirrored(int vkind, PyObject *o, int64_t *out) {
    if (o == Py_None) { *out = RT_NONE; return 0; }
#if PY_VERSION_HEX < 0x030C0000
    if (vkind == 0 && PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) { *out = 0; return 0; }
        if (size == 1) { *out = (int64_t)((PyLongObject *)o)->ob_digit[0]; return 0; }
        if (size == -1) { *out = -(int64_t)((PyLongObject *)o)->ob_digit[0]; return 0; }
    }
#endif
    return rt_unbox_kind(vkind, o, out);
}

/* The array of a table's values (RT_MIRROR_OFF: read the dict), NULL with an error set. */
/* st.vals[name] or st.zones[name] (borrowed), found once while that dict is unchanged. */
static PyObject *rt_owned_table(R *r, Mirror *m, PyObject *name, int zones) {
    PyObject *owner = zones ? r->zones : r->vals;
    if (!owner) {
        if (zones) { if (!(owner = r->zones = rt_attr(r->st, CSI_zones, S_zones))) return NULL; }
        else if (!(owner = r->vals = rt_attr(r->st, CSI_vals, S_vals))) return NULL;
    }
    if (RT_MIRRORS && m->owner == owner && m->owner_tag == RT_DICT_TAG(owner) && m->table) return m->table;
    PyObject *t = zones ? rt_zone_table(r, name) : rt_table(r, name);
    if (!t) return NULL;
    m->owner = owner; m->owner_tag = RT_DICT_TAG(owner); m->table = t;
    return t;
}

/* The flat index of the j-th key k of a dict being mirrored: from the order last seen, else looked up. */
static inline Py_ssize_t rt_ordered_key(Mirror *m, Py_ssize_t j, PyObject *k, int ndims, const int *dims, int64_t n,
                                        int *in_order) {
    if (*in_order && j < m->norder && m->order_n == n && m->order[j] == k) return m->order_at[j];
    *in_order = 0;
    return rt_flat_key(k, ndims, dims, n);
}

/* Remember the keys of a dict just mirrored, in its order (nothing if memory is short). */
static void rt_remember_order(Mirror *m, PyObject *d, int ndims, const int *dims, int64_t n) {
    for (Py_ssize_t i = 0; i < m->norder; i++) Py_DECREF(m->order[i]);
    m->norder = 0;
    m->order_n = n;
    Py_ssize_t size = PyDict_GET_SIZE(d);
    PyObject **order = PyMem_Realloc(m->order, sizeof(PyObject *) * (size_t)(size ? size : 1));
    if (!order) return;
    m->order = order;
    Py_ssize_t *at = PyMem_Realloc(m->order_at, sizeof(Py_ssize_t) * (size_t)(size ? size : 1));
    if (!at) return;
    m->order_at = at;
    Py_ssize_t pos = 0, j = 0; PyObject *k, *v;
    while (PyDict_Next(d, &pos, &k, &v) && j < size) {
        Py_ssize_t flat = rt_flat_key(k, ndims, dims, n);
        if (flat < 0) { PyErr_Clear(); break; }
        m->order[j] = Py_NewRef(k);
        m->order_at[j] = flat;
        m->norder = ++j;
    }
}

/* Mirror d (tag as it is) from the values saved when State.clone made it (see rt_mirror_twin): 1 if so. */
static int rt_mirror_adopt(Mirror *m, PyObject *d, uint64_t tag) {
    if (!(m->twin == d && m->twin_tag == tag && m->saved_dict == m->twin_of && m->saved_tag == m->twin_of_tag
          && m->saved_len <= m->size && m->vals)) return 0;
    memcpy(m->vals, m->saved, sizeof(int64_t) * (size_t)m->saved_len);
    m->dict = d; m->tag = tag; m->off = 0; m->len = m->saved_len; m->n = m->saved_n;
    m->twin = NULL;
    return 1;
}

#if RT_MIRRORS
#define RT_DICT_NEXT(d, pos, k, v, hash) _PyDict_Next((d), (pos), (k), (v), (hash))
#else
#define RT_DICT_NEXT(d, pos, k, v, hash) PyDict_Next((d), (pos), (k), (v))
#endif

/* Room for the keys of a table of `size` flat indexes at n players (those held for other players let go of);
 * 0 if there is none (the keys are then not held). */
static int rt_mirror_keys_room(Mirror *m, Py_ssize_t size, int64_t n) {
    if (!RT_MIRRORS) return 0;
    if (m->key_n != n) {
        for (Py_ssize_t i = 0; i < m->keycap; i++) Py_CLEAR(m->keyobj[i]);
        m->key_n = n;
    }
    if (size <= m->keycap) return 1;
    PyObject **grown = PyMem_Realloc(m->keyobj, sizeof(PyObject *) * (size_t)size);
    if (!grown) { m->key_n = -1; return 0; }
    m->keyobj = grown;
    Py_hash_t *hashes = PyMem_Realloc(m->keyhash, sizeof(Py_hash_t) * (size_t)size);
    if (!hashes) { m->key_n = -1; return 0; }  /* (keyobj's room grew: keycap stays what both hold) */
    m->keyhash = hashes;
    for (Py_ssize_t i = m->keycap; i < size; i++) m->keyobj[i] = NULL;
    m->keycap = size;
    return 1;
}

/* The dict holds key k (of this hash) at flat index at. */
static inline void rt_mirror_key_found(Mirror *m, Py_ssize_t at, PyObject *k, Py_hash_t hash) {
    if (at < 0 || at >= m->keycap) return;
    if (m->keyobj[at] != k) Py_XSETREF(m->keyobj[at], Py_NewRef(k));  /* (a key's freeing runs no Python code) */
    m->keyhash[at] = hash;
}

/* The key of flat index `at` of a table mirrored for r's players (borrowed, held by the mirror until its next
 * walk at other players) and its hash; NULL if it is not held. */
RT_HOT PyObject *rt_mirror_key(R *r, Mirror *m, Py_ssize_t at, Py_hash_t *hash) {
    if (!RT_MIRRORS || m->key_n != r->n || at < 0 || at >= m->keycap || !m->keyobj[at]) return NULL;
    *hash = m->keyhash[at];
    return m->keyobj[at];
}

/* d[key] = v by the key's hash (steals v): the write of a table at keys its mirror holds. */
static int rt_dict_set_hashed(PyObject *d, PyObject *key, Py_hash_t hash, PyObject *v) {
#if RT_MIRRORS
    int bad = _PyDict_SetItem_KnownHash(d, key, v, hash);
#else
    (void)hash;
    int bad = PyDict_SetItem(d, key, v);
#endif
    Py_DECREF(v);
    return bad;
}

/* d[key] = v (steals v): the write of a table at keys its mirror does not hold. */
static int rt_dict_set(PyObject *d, PyObject *key, PyObject *v) {
    int bad = PyDict_SetItem(d, key, v);
    Py_DECREF(v);
    return bad;
}

static int64_t *rt_mirror_slow(R *r, Mirror *m, PyObject *name, int ndims, const int *dims, int vkind) {
    PyObject *d = rt_owned_table(r, m, name, 0);
    if (!d) return NULL;
    if (!RT_MIRRORS || !PyDict_CheckExact(d)) return RT_MIRROR_OFF;
    uint64_t tag = RT_DICT_TAG(d);
    if (m->dict == d && m->tag == tag) return m->off ? RT_MIRROR_OFF : m->vals;
    if (rt_mirror_adopt(m, d, tag)) return m->vals;
    m->dict = d; m->tag = tag; m->off = 1;
    Py_ssize_t size = 1;
    for (int i = 0; i < ndims; i++) size *= rt_dim_size(dims[i], r->n);
    if (PyDict_GET_SIZE(d) != size || size > 1000000) return RT_MIRROR_OFF;
    if (size > m->size || !m->vals) {
        int64_t *grown = PyMem_Realloc(m->vals, sizeof(int64_t) * (size_t)(size ? size : 1));
        if (!grown) return RT_MIRROR_OFF;
        m->vals = grown; m->size = size;
    }
    int keys = rt_mirror_keys_room(m, size, r->n);
    /* which flat indexes were found: needed only once the keys leave the order last seen (keys in that order
     * are distinct, the dict's size is the table's) */
    char *seen = NULL;
    Py_ssize_t pos = 0, j = 0; PyObject *k, *v;
    Py_hash_t hash = 0;
    int in_order = 1;
    while (RT_DICT_NEXT(d, &pos, &k, &v, &hash)) {
        Py_ssize_t at = rt_ordered_key(m, j, k, ndims, dims, r->n, &in_order);
        if (!in_order && !seen) {
            seen = PyMem_Calloc((size_t)(size ? size : 1), 1);
            if (!seen) { PyErr_Clear(); return RT_MIRROR_OFF; }
            for (Py_ssize_t i = 0; i < j; i++) seen[m->order_at[i]] = 1;
        }
        j++;
        int64_t x;
        if (at < 0 || (seen && seen[at]) || rt_unbox_mirrored(vkind, v, &x) < 0) {
            PyErr_Clear();
            PyMem_Free(seen);
            return RT_MIRROR_OFF;
        }
        if (seen) seen[at] = 1;
        m->vals[at] = x;
        if (keys) rt_mirror_key_found(m, at, k, hash);
    }
    PyMem_Free(seen);
    if (!in_order) rt_remember_order(m, d, ndims, dims, r->n);
    m->off = 0; m->len = size; m->n = r->n;
    return m->vals;
}

/* State.clone copied the table dict src to dst: a mirror of src (as it is) saves its values for dst. */
static void rt_mirror_twin(PyObject *src, PyObject *dst) {
    if (!RT_MIRRORS) return;
    uint64_t tag = RT_DICT_TAG(src);
    for (int i = 0; i < RT_NVM; i++) {
        Mirror *m = &RT_VM[i];

        if (m->dict == src && m->tag == tag && !m->off && m->vals
            && !(m->saved_dict == src && m->saved_tag == tag)) {
            if (m->len > m->saved_cap) {
                int64_t *grown = PyMem_Realloc(m->saved, sizeof(int64_t) * (size_t)(m->len ? m->len : 1));
                if (!grown) { m->saved_dict = NULL; continue; }
                m->saved = grown; m->saved_cap = m->len;
            }
            memcpy(m->saved, m->vals, sizeof(int64_t) * (size_t)m->len);
            m->saved_len = m->len; m->saved_n = m->n; m->saved_dict = src; m->saved_tag = tag;
        }
        if (m->saved_dict == src && m->saved_tag == tag) {
            m->twin = dst; m->twin_tag = RT_DICT_TAG(dst); m->twin_of = src; m->twin_of_tag = tag;
        }
    }
}

/* The array of a table's values (RT_MIRROR_OFF: read the dict), NULL with an error set: at once where the
 * state's tables and this table are the ones last seen, unchanged. */
static inline __attribute__((always_inline)) int64_t *rt_mirror(R *r, Mirror *m, PyObject *name, int ndims,
                                                                const int *dims, int vkind) {
    if (RT_MIRRORS && r->vals && m->owner == r->vals && m->table && m->dict == m->table && !m->off
        && m->owner_tag == RT_DICT_TAG(r->vals) && m->tag == RT_DICT_TAG(m->table))
        return m->vals;
    return rt_mirror_slow(r, m, name, ndims, dims, vkind);
}

/* After the generated code set d[key] (flat index at) to x: keep the mirror of d up to date. */
static void rt_mirror_wrote(Mirror *m, PyObject *d, uint64_t before, Py_ssize_t at, int64_t x) {
    if (!RT_MIRRORS) return;
    /* a clone's dict (or a spare's, rewritten in place: the same dict, a new tag) written before it was read */
    if (m->dict != d || m->tag != before) rt_mirror_adopt(m, d, before);
    if (m->dict == d && m->tag == before && !m->off && at >= 0 && at < m->size) {
        m->vals[at] = x;
        m->tag = RT_DICT_TAG(d);
    } else if (m->dict == d) {
        m->dict = NULL;
    }
}

/* The lists of pieces of a zone's keys (RT_ZONES_OFF: read the dict), NULL with an error set. */
static PyObject **rt_zone_mirror_slow(R *r, Mirror *m, PyObject *name, int ndims, const int *dims) {
    PyObject *d = rt_owned_table(r, m, name, 1);
    if (!d) return NULL;
    if (!RT_MIRRORS || !PyDict_CheckExact(d)) return RT_ZONES_OFF;
    uint64_t tag = RT_DICT_TAG(d);
    if (m->dict == d && m->tag == tag) return m->off ? RT_ZONES_OFF : m->lists;
    m->dict = d; m->tag = tag; m->off = 1;
    Py_ssize_t size = 1;
    for (int i = 0; i < ndims; i++) size *= rt_dim_size(dims[i], r->n);
    if (PyDict_GET_SIZE(d) != size || size > 1000000) return RT_ZONES_OFF;
    if (size > m->size || !m->lists) {
        PyObject **grown = PyMem_Realloc(m->lists, sizeof(PyObject *) * (size_t)(size ? size : 1));
        if (!grown) return RT_ZONES_OFF;
        m->lists = grown; m->size = size;
    }
    for (Py_ssize_t i = 0; i < size; i++) m->lists[i] = NULL;
    Py_ssize_t pos = 0, j = 0; PyObject *k, *v;
    int in_order = 1;
    while (PyDict_Next(d, &pos, &k, &v)) {
        Py_ssize_t at = rt_ordered_key(m, j++, k, ndims, dims, r->n, &in_order);
        if (at < 0 || m->lists[at] || !PyList_CheckExact(v)) { PyErr_Clear(); return RT_ZONES_OFF; }
        m->lists[at] = v;
    }
    if (!in_order) rt_remember_order(m, d, ndims, dims, r->n);
    m->off = 0;
    return m->lists;
}

static inline __attribute__((always_inline)) PyObject **rt_zone_mirror(R *r, Mirror *m, PyObject *name, int ndims,
                                                                       const int *dims) {
    if (RT_MIRRORS && r->zones && m->owner == r->zones && m->table && m->dict == m->table && !m->off
        && m->owner_tag == RT_DICT_TAG(r->zones) && m->tag == RT_DICT_TAG(m->table))
        return m->lists;
    return rt_zone_mirror_slow(r, m, name, ndims, dims);
}

/* ---------------------------------------------------------------- options
 * The options of a decision whose values are all held as int64: kept in arrays, each option made as a
 * Python tuple (branch index, values) only when it is read.  A sequence as the Python back end's list:
 * len(), [i], [i:j], iteration, ==, index(). */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n, cap;         /* options held; room for options (under this width) */
    int width;                 /* values per option, the most of any branch */
    const signed char *shape;  /* per branch: its number of values, then each value's kind */
    int shape_stride;          /* 1 + width */
    unsigned char *branch;     /* per option its branch (room: nbranch) */
    int64_t *vals;             /* per option its values, width apart (room: nvals) */
    Py_ssize_t nbranch, nvals;
} Options;

/* Options let go of are kept (with their arrays) for the next listings: a decision then allocates nothing. */
#define RT_OPTIONS_FREE 16
static Options *OPTIONS_FREE[RT_OPTIONS_FREE];
static int OPTIONS_NFREE;

static PyObject *rt_unbox_back(int kind, int64_t v) {  /* new reference: see rt_unbox_kind */
    if (v == RT_NONE) return Py_NewRef(Py_None);
    if (kind == 0) return rt_int_obj(v);
    if (kind == 1) return rt_bool_obj(v);
    if (kind == 2) return rt_text_obj(v);
    return rt_key_obj(kind - 3, v);
}

static PyObject *options_item(PyObject *self, Py_ssize_t i) {
    Options *o = (Options *)self;
    if (i < 0) i += o->n;
    if (i < 0 || i >= o->n) { PyErr_SetString(PyExc_IndexError, "list index out of range"); return NULL; }
    int b = o->branch[i];
    const signed char *shape = o->shape + (size_t)b * (size_t)o->shape_stride;
    int nv = shape[0];
    PyObject *values = PyTuple_New(nv);
    if (!values) return NULL;
    for (int k = 0; k < nv; k++) {
        PyObject *x = rt_unbox_back(shape[1 + k], o->vals[(size_t)i * (size_t)o->width + (size_t)k]);
        if (!x) { Py_DECREF(values); return NULL; }
        PyTuple_SET_ITEM(values, k, x);
    }
    PyObject *out = PyTuple_Pack(2, PyTuple_GET_ITEM(SMALL_INTS, b), values);
    Py_DECREF(values);
    return out;
}

static Py_ssize_t options_len(PyObject *self) { return ((Options *)self)->n; }

static PyObject *options_list(PyObject *self) {
    Options *o = (Options *)self;
    PyObject *l = PyList_New(o->n);
    if (!l) return NULL;
    for (Py_ssize_t i = 0; i < o->n; i++) {
        PyObject *x = options_item(self, i);
        if (!x) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

static PyObject *options_subscript(PyObject *self, PyObject *key) {
    if (PySlice_Check(key)) {
        PyObject *l = options_list(self);
        if (!l) return NULL;
        PyObject *out = PyObject_GetItem(l, key);
        Py_DECREF(l);
        return out;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    return options_item(self, i);
}

static PyObject *options_richcompare(PyObject *self, PyObject *other, int op) {
    if ((op != Py_EQ && op != Py_NE) || !PySequence_Check(other) || PyUnicode_Check(other) || PyBytes_Check(other))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *a = options_list(self);
    if (!a) return NULL;
    PyObject *b = PySequence_List(other);
    if (!b) { Py_DECREF(a); return NULL; }
    PyObject *out = PyObject_RichCompare(a, b, op);
    Py_DECREF(a); Py_DECREF(b);
    return out;
}

/* A value of an option given from Python as this kind holds it (see rt_unbox_back), for options_index: 1 with
 * *out set; 0 if no option's value of this kind equals it; -1 if only Python's == can tell (a value of another
 * type: 1 == True, 1 == 1.0, a subclass), with no error set. */
static int rt_option_value(int kind, PyObject *x, int64_t *out) {
    if (x == Py_None) { *out = RT_NONE; return 1; }
    if (kind == 0) {
        if (!PyLong_CheckExact(x)) return -1;
        int over = 0;
        long long v = PyLong_AsLongLongAndOverflow(x, &over);
        if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); return -1; }
        if (over || v == RT_NONE) return 0;  /* (RT_NONE stands for none: no number of an option is it) */
        *out = v;
        return 1;
    }
    if (kind == 1) {
        if (x == Py_True || x == Py_False) { *out = x == Py_True; return 1; }
        return -1;
    }
    PyObject *ids;
    if (kind == 2) {
        if (!PyUnicode_CheckExact(x) || PyDict_GET_SIZE(TEXT_IDS) != PyList_GET_SIZE(TEXTS)) return -1;
        ids = TEXT_IDS;
    } else {
        ids = PyTuple_GET_ITEM(KEY_IDS, kind - 3);
        if (!(PyUnicode_CheckExact(x) || PyLong_CheckExact(x))
            || PyDict_GET_SIZE(ids) != PyTuple_GET_SIZE(PyTuple_GET_ITEM(KEYS, kind - 3)))
            return -1;  /* (keys equal to each other would make the first index ambiguous: Python decides) */
    }
    PyObject *i = PyDict_GetItemWithError(ids, x);
    if (!i) {
        if (PyErr_Occurred()) { PyErr_Clear(); return -1; }
        return 0;
    }
    int64_t v = PyLong_AsLongLong(i);
    /* the key or text itself must be of the value's type (a key 1.0 equals 1, but is another value) */
    PyObject *held = NULL;
    if (kind == 2) {
        if (v >= 0 && v < PyList_GET_SIZE(TEXTS)) held = PyList_GET_ITEM(TEXTS, v);
    } else {
        PyObject *keys = PyTuple_GET_ITEM(KEYS, kind - 3);
        if (v >= 0 && v < PyTuple_GET_SIZE(keys)) held = PyTuple_GET_ITEM(keys, v);
    }
    if (!held || Py_TYPE(held) != Py_TYPE(x)) return -1;
    *out = v;
    return 1;
}

/* options.index(option) by the option's values, with no tuple made per option: the branch index and each value
 * read as the branch's kinds hold them and compared as int64s.  1 with *at set (-1 if no option is it); 0 where
 * only Python's == can tell (see rt_option_value), with no error set.  An option found so holds the very same
 * values (each of the type of the one asked for: see options_find). */
static int rt_options_find(Options *o, PyObject *arg, Py_ssize_t *at) {
    *at = -1;
    if (!PyTuple_CheckExact(arg) || PyTuple_GET_SIZE(arg) != 2) return 0;
    PyObject *bo = PyTuple_GET_ITEM(arg, 0), *vo = PyTuple_GET_ITEM(arg, 1);
    if (!PyLong_CheckExact(bo) || !PyTuple_CheckExact(vo)) return 0;
    int over = 0;
    long long b = PyLong_AsLongLongAndOverflow(bo, &over);
    if (b == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
    if (over || b < 0 || b > 255) return 1;  /* no branch has this index */
    Py_ssize_t first = 0;
    while (first < o->n && o->branch[first] != b) first++;
    if (first == o->n) return 1;  /* no option of this branch: its shape is not known here, nor needed */
    const signed char *shape = o->shape + (size_t)b * (size_t)o->shape_stride;
    int nv = shape[0];
    if (PyTuple_GET_SIZE(vo) != nv) return 1;
    int64_t want[256];
    if (nv > 256) return 0;
    for (int k = 0; k < nv; k++) {
        int got = rt_option_value(shape[1 + k], PyTuple_GET_ITEM(vo, k), &want[k]);
        if (got < 0) return 0;
        if (got == 0) return 1;
    }
    for (Py_ssize_t i = first; i < o->n; i++) {
        if (o->branch[i] != b) continue;
        const int64_t *v = o->vals + (size_t)i * (size_t)o->width;
        int k = 0;
        for (; k < nv; k++) {
            int64_t a = v[k];
            if (shape[1 + k] == 1 && a != RT_NONE) a = a != 0;  /* (a flag is any number but none: 0 or not) */
            if (a != want[k]) break;
        }
        if (k == nv) { *at = i; return 1; }
    }
    return 1;
}

static PyObject *options_index(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1) { PyErr_SetString(PyExc_TypeError, "index() takes an option"); return NULL; }
    Options *o = (Options *)self;
    Py_ssize_t at;
    if (rt_options_find(o, args[0], &at)) {
        if (at >= 0) return PyLong_FromSsize_t(at);
        PyErr_SetString(PyExc_ValueError, "not an option here");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < o->n; i++) {
        PyObject *x = options_item(self, i);
        if (!x) return NULL;
        int eq = PyObject_RichCompareBool(x, args[0], Py_EQ);
        Py_DECREF(x);
        if (eq < 0) return NULL;
        if (eq) return PyLong_FromSsize_t(i);
    }
    PyErr_SetString(PyExc_ValueError, "not an option here");
    return NULL;
}

/* options.find(option): its index where the options hold it with the very same values (each of the same type as
 * the value asked for, not only equal: 1 and True are equal), -1 if no option is it, None where only Python's ==
 * can tell (see rt_option_value). */
static PyObject *options_find(PyObject *self, PyObject *arg) {
    Py_ssize_t at;
    if (!rt_options_find((Options *)self, arg, &at)) Py_RETURN_NONE;
    return PyLong_FromSsize_t(at);
}

static PyObject *options_repr(PyObject *self) {
    PyObject *l = options_list(self);
    if (!l) return NULL;
    PyObject *out = PyObject_Repr(l);
    Py_DECREF(l);
    return out;
}

static void options_dealloc(PyObject *self) {
    Options *o = (Options *)self;
    if (OPTIONS_NFREE < RT_OPTIONS_FREE && o->nbranch <= 4096) {
        OPTIONS_FREE[OPTIONS_NFREE++] = o;
        return;
    }
    PyMem_Free(o->branch);
    PyMem_Free(o->vals);
    Py_TYPE(self)->tp_free(self);
}

static PySequenceMethods options_as_sequence = {.sq_length = options_len, .sq_item = options_item};
static PyMappingMethods options_as_mapping = {.mp_length = options_len, .mp_subscript = options_subscript};
static PyMethodDef options_methods[] = {
    {"index", (PyCFunction)(void (*)(void))options_index, METH_FASTCALL, NULL},
    {"find", options_find, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
static PyTypeObject OptionsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "interpreter.native.Options",
    .tp_basicsize = sizeof(Options),
    .tp_dealloc = options_dealloc,
    .tp_repr = options_repr,
    .tp_as_sequence = &options_as_sequence,
    .tp_as_mapping = &options_as_mapping,
    .tp_richcompare = options_richcompare,
    .tp_methods = options_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_hash = PyObject_HashNotImplemented,
};

static Options *rt_options_new(R *r, const signed char *shape, int width) {
    Options *o;
    if (OPTIONS_NFREE > 0) {  /* one let go of before, its arrays kept */
        o = OPTIONS_FREE[--OPTIONS_NFREE];
        PyObject_Init((PyObject *)o, &OptionsType);
    } else {
        if (!(o = PyObject_New(Options, &OptionsType))) return NULL;
        o->branch = NULL; o->vals = NULL; o->nbranch = 0; o->nvals = 0;
    }
    o->n = 0; o->width = width; o->shape = shape; o->shape_stride = 1 + width;
    Py_ssize_t per = width > 0 ? width : 1;
    o->cap = o->nbranch < o->nvals / per ? o->nbranch : o->nvals / per;
    return (Options *)rt_keep(r, (PyObject *)o);
}

/* Room for more options: twice as many (at least 32); -1 with an error set. */
static int rt_options_grow(Options *o) {
    if (o->cap >= 400000) return rt_stuck();
    Py_ssize_t cap = o->cap >= 16 ? o->cap * 2 : 32, per = o->width > 0 ? o->width : 1;
    if (cap > o->nbranch) {
        unsigned char *br = PyMem_Realloc(o->branch, (size_t)cap);
        if (!br) { PyErr_NoMemory(); return -1; }
        o->branch = br; o->nbranch = cap;
    }
    if (cap * per > o->nvals) {
        int64_t *vs = PyMem_Realloc(o->vals, sizeof(int64_t) * (size_t)(cap * per));
        if (!vs) { PyErr_NoMemory(); return -1; }
        o->vals = vs; o->nvals = cap * per;
    }
    o->cap = cap;
    return 0;
}

/* Room for one more of a listing's kept values (an int64 array, first on the C stack: its first `*cap`): twice as
 * many, in memory kept for the call (a bytes object let go of with its other temporaries); -1 with an error set.
 * (A listing's values are bounded by its charge: never more than the step limit.) */
static int rt_kept_grow(R *r, int64_t **vals, Py_ssize_t *cap) {
    if (*cap > PY_SSIZE_T_MAX / 16) { PyErr_NoMemory(); return -1; }
    PyObject *b = rt_keep(r, PyBytes_FromStringAndSize(NULL, *cap * 2 * (Py_ssize_t)sizeof(int64_t)));
    if (!b) return -1;
    int64_t *to = (int64_t *)PyBytes_AS_STRING(b);
    memcpy(to, *vals, (size_t)*cap * sizeof(int64_t));
    *vals = to; *cap *= 2;
    return 0;
}

/* Add an option of branch b: its row of values (width: o->width, the widest branch's), for the listing to fill with
 * the values its shape says, then zeros to the width (the emitter writes each store: no copy loop); NULL with an
 * error set. */
RT_HOT int64_t *rt_option_row(Options *o, int b, int width) {
    Py_ssize_t n = o->n;
    if (n >= o->cap && rt_options_grow(o) < 0) return NULL;
    o->branch[n] = (unsigned char)b;
    o->n = n + 1;
    return o->vals + (size_t)n * (size_t)width;
}

/* st.world.nodes[graph] or st.world.adjacent[graph] (borrowed): a state's world never changes, and the
 * world last read is held (a strong reference) so that its address names it. */
static PyObject *rt_world_map(R *r, PyObject **owner, PyObject **maps, int which, int g, PyObject *name) {
    PyObject *w = rt_attr(r->st, CSI_world, S_world);
    if (!w) return NULL;
    if (w != *owner) {
        Py_XSETREF(*owner, Py_NewRef(w));
        for (int i = 0; i < 2 * RT_GRAPHS; i++) maps[i] = NULL;
    }
    Py_DECREF(w);  /* *owner holds it */
    PyObject **slot = &maps[which * RT_GRAPHS + g];
    if (!*slot) {
        PyObject *m = PyObject_GetAttr(w, which ? S_adjacent : S_nodes);
        if (!m) return NULL;
        PyObject *got = PyDict_Check(m) ? PyDict_GetItemWithError(m, name) : NULL;
        if (!got) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, name);
            Py_DECREF(m);
            return NULL;
        }
        Py_DECREF(m);  /* the world holds its maps */
        *slot = got;
    }
    return *slot;
}


/* ----------------------------------------------------------- the run loop
 * State._run in C, for a variant whose functions are all C: the frames are the state's own list of
 * [procedure, instruction, locals]; the instructions are a Program (made once per variant from the
 * compiled procedures by interpreter/native.py), and each RESUME, CALL and decision calls the generated
 * function's body directly, with one R for the whole run (one budget, the state's tables read once).
 * Anything out of the ordinary (a `finish`, calls nested too deep, a frame or position that is not what
 * the compiler makes) is handed back to the Python loop, which goes on from the same place. */

typedef int (*RtBody)(R *r, PyObject *const *args, Py_ssize_t nargs, int64_t *ret, PyObject **retobj);
static const RtBody *RT_BODIES;
static Py_ssize_t RT_NBODIES;

enum { OP_RESUME, OP_CALL, OP_RETURN, OP_CHOOSE, OP_CHANCE, OP_FINISH };
#define RT_MAX_CALL_DEPTH 10000

typedef struct {
    int op;
    Py_ssize_t body;    /* RT_BODIES index (-1: none) */
    Py_ssize_t target;  /* CALL: the procedure called */
    PyObject *obj;      /* CHOOSE / CHANCE: the Decision (owned) */
    PyObject *fn;       /* CALL / CHOOSE / CHANCE: the Python-callable function (owned), run where the body
                         * gives up on a number past the bound (it then runs the Python back end's) */
    PyObject *branches; /* CHOOSE / CHANCE: per branch (target, names of its bindings, whether its text may be
                         * written later: see native.runner) (owned) */
} RtIns;

typedef struct {
    PyObject_HEAD
    Py_ssize_t nprocs;
    Py_ssize_t *start;
    Py_ssize_t *len;
    RtIns *ins;
    Py_ssize_t nins;
} Program;

static void program_dealloc(PyObject *self) {
    Program *p = (Program *)self;
    if (p->ins) for (Py_ssize_t i = 0; i < p->nins; i++) {
        Py_XDECREF(p->ins[i].obj); Py_XDECREF(p->ins[i].fn); Py_XDECREF(p->ins[i].branches);
    }
    PyMem_Free(p->ins); PyMem_Free(p->start); PyMem_Free(p->len);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject ProgramType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "interpreter.native.Program",
    .tp_basicsize = sizeof(Program),
    .tp_dealloc = program_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

/* program(procedures): procedures a tuple, each a tuple of instructions (op, body, target, decision, fn). */
static PyObject *rt_program_new(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *procs;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &procs)) return NULL;
    Program *p = PyObject_New(Program, &ProgramType);
    if (!p) return NULL;
    p->nprocs = PyTuple_GET_SIZE(procs); p->nins = 0; p->ins = NULL;
    p->start = PyMem_Calloc((size_t)p->nprocs + 1, sizeof(Py_ssize_t));
    p->len = PyMem_Calloc((size_t)p->nprocs + 1, sizeof(Py_ssize_t));
    if (!p->start || !p->len) { Py_DECREF(p); return PyErr_NoMemory(); }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < p->nprocs; i++) {
        PyObject *code = PyTuple_GET_ITEM(procs, i);
        if (!PyTuple_Check(code)) { Py_DECREF(p); PyErr_SetString(PyExc_TypeError, "a procedure's code is a tuple"); return NULL; }
        p->start[i] = total; p->len[i] = PyTuple_GET_SIZE(code); total += p->len[i];
    }
    p->ins = PyMem_Calloc((size_t)total + 1, sizeof(RtIns));
    if (!p->ins) { Py_DECREF(p); return PyErr_NoMemory(); }
    p->nins = total;
    for (Py_ssize_t i = 0; i < p->nprocs; i++) {
        PyObject *code = PyTuple_GET_ITEM(procs, i);
        for (Py_ssize_t k = 0; k < p->len[i]; k++) {
            RtIns *in = &p->ins[p->start[i] + k];
            int op; Py_ssize_t body, target; PyObject *obj, *fn, *branches;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(code, k), "innOOO!", &op, &body, &target, &obj, &fn, &PyTuple_Type,
                                  &branches)) { Py_DECREF(p); return NULL; }
            for (Py_ssize_t b = 0; b < PyTuple_GET_SIZE(branches); b++) {
                PyObject *br = PyTuple_GET_ITEM(branches, b);
                if (!PyTuple_CheckExact(br) || PyTuple_GET_SIZE(br) != 3 || !PyLong_CheckExact(PyTuple_GET_ITEM(br, 0))
                    || !PyTuple_CheckExact(PyTuple_GET_ITEM(br, 1)) || !PyBool_Check(PyTuple_GET_ITEM(br, 2))) {
                    Py_DECREF(p); PyErr_SetString(PyExc_ValueError, "a branch is (target, names, lazy)"); return NULL;
                }
            }
            int needs_body = op == OP_RESUME || op == OP_CALL || op == OP_CHOOSE || op == OP_CHANCE;
            if (op < OP_RESUME || op > OP_FINISH || (needs_body && (body < 0 || body >= RT_NBODIES))
                || (op == OP_CALL && (target < 0 || target >= p->nprocs))) {
                Py_DECREF(p); PyErr_SetString(PyExc_ValueError, "an instruction the run loop cannot run"); return NULL;
            }
            in->op = op; in->body = body; in->target = target;
            in->obj = Py_NewRef(obj); in->fn = Py_NewRef(fn); in->branches = Py_NewRef(branches);
        }
    }
    return (PyObject *)p;
}

/* An int of a frame within [0, bound); -1 if it is not one. */
RT_HOT Py_ssize_t rt_frame_int(PyObject *o, Py_ssize_t bound) {
    if (!PyLong_CheckExact(o)) return -1;
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    /* an int of one digit (or 0) read in place: CPython 3.11's layout (a procedure or a stop is small) */
    if (Py_SIZE(o) == 0) return 0 < bound ? 0 : -1;
    if (Py_SIZE(o) == 1) {
        Py_ssize_t d = (Py_ssize_t)((PyLongObject *)o)->ob_digit[0];
        return d < bound ? d : -1;
    }
#endif
    Py_ssize_t v = PyLong_AsSsize_t(o);
    if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); return -1; }
    return (v >= 0 && v < bound) ? v : -1;
}

RT_HOT int rt_frame_set_pc(PyObject *fr, Py_ssize_t pc) {
    if (pc < 0 || pc >= 256 || PyList_GET_SIZE(fr) < 2) {
        PyObject *v = PyLong_FromSsize_t(pc);
        return v ? PyList_SetItem(fr, 1, v) : -1;  /* (steals v) */
    }
    PyObject *old = PyList_GET_ITEM(fr, 1);
    PyList_SET_ITEM(fr, 1, Py_NewRef(PyTuple_GET_ITEM(SMALL_INTS, pc)));
    rt_decref(old);
    return 0;
}

/* Frame lists let go of by returns (see rt_frame_done), each [None, None, None] and held by nothing else (owned),
 * for the next calls: a call then allocates no list. */
#define RT_FRAME_SPARES 8
static PyObject *FRAME_SPARES[RT_FRAME_SPARES];
static int FRAME_NSPARE;

/* A frame list [proc, 0, env] (steals env; NULL with an error set): a spare if there is one, else a new one. */
static PyObject *rt_frame_new(Py_ssize_t proc, PyObject *env) {
    PyObject *p = rt_int_obj(proc);
    if (!p) { rt_decref(env); return NULL; }
    PyObject *nf;
    if (FRAME_NSPARE > 0) {
        nf = FRAME_SPARES[--FRAME_NSPARE];
        PyObject **items = ((PyListObject *)nf)->ob_item;  /* (Nones: still held by None's other holders) */
        rt_decref(items[0]); rt_decref(items[1]); rt_decref(items[2]);
    } else if (!(nf = PyList_New(3))) {
        rt_decref(p); rt_decref(env); return NULL;
    }
    PyList_SET_ITEM(nf, 0, p);
    PyList_SET_ITEM(nf, 1, Py_NewRef(PyTuple_GET_ITEM(SMALL_INTS, 0)));
    PyList_SET_ITEM(nf, 2, env);
    return nf;
}

/* Let go of a frame list (a reference): kept as a spare where nothing else holds it (a return popped it), its items
 * let go of (the locals freed as before). */
RT_HOT void rt_frame_done(PyObject *fr) {
    if (Py_REFCNT(fr) != 1 || FRAME_NSPARE >= RT_FRAME_SPARES || !PyList_CheckExact(fr) || PyList_GET_SIZE(fr) != 3) {
        rt_decref(fr);
        return;
    }
    PyObject **items = ((PyListObject *)fr)->ob_item, *a = items[0], *b = items[1], *c = items[2];
    items[0] = Py_NewRef(Py_None); items[1] = Py_NewRef(Py_None); items[2] = Py_NewRef(Py_None);
    FRAME_SPARES[FRAME_NSPARE++] = fr;  /* (kept before the items go: freeing them runs no Python code, but be sure) */
    rt_decref(a); rt_decref(b); rt_decref(c);
}

/* Run a body that changes nothing (new locals, a listing); where it gives up on a number past the bound,
 * run its Python-callable function instead (which runs the Python back end's), with the run's budget. */
static int rt_run_pure(R *r, RtIns *in, PyObject *const *args, Py_ssize_t nargs, PyObject **out) {
    int64_t ret = -1, budget0 = r->budget;
    *out = NULL;
    r->site = -1;
    int bad = RT_BODIES[in->body](r, args, nargs, &ret, out);
    rt_release(r);
    if (bad == 0) {
        if (!*out) { PyErr_SetString(PyExc_SystemError, "generated code made no value"); return -1; }
        return 0;
    }
    if (!PyErr_ExceptionMatches(TOO_LARGE)) return -1;
    PyErr_Clear();
    r->budget = budget0;
    PyObject *b = PyLong_FromLongLong(r->budget);
    if (!b) return -1;
    bad = rt_set_attr(r->st, CSI_budget, S_budget, b);
    Py_DECREF(b);
    if (bad < 0) return -1;
    *out = PyObject_Vectorcall(in->fn, args, (size_t)nargs, NULL);
    r->site = -1;  /* its errors carry their own place */
    b = rt_attr(r->st, CSI_budget, S_budget);
    if (!b) { Py_CLEAR(*out); return -1; }
    r->budget = PyLong_AsLongLong(b);
    Py_DECREF(b);
    if (r->budget == -1 && PyErr_Occurred()) { Py_CLEAR(*out); return -1; }
    return *out ? 0 : -1;
}

/* A `finish` reached by the run loop, as the Python loop takes it: the winners its function names (each a seat of
 * the game, once: sorted) set, the frames cleared; 2 when done, 3 where the Python loop is to take it (no C
 * function, a state not laid out as expected, winners that are not seats: it then says so), -1 on error. */
static int rt_finish(R *r, RtIns *in, PyObject *const *argv, PyObject *frames) {
    if (in->body < 0 || in->body >= RT_NBODIES || !RT_IS_CS(Py_TYPE(r->st)) || !CS_SLOT(r->st, CSI_winners) || r->n < 1 || r->n > 64) return 3;
    PyObject *seats = NULL;
    if (rt_run_pure(r, in, argv, 2, &seats) < 0) return -1;
    uint64_t won = 0;
    int plain = PyList_CheckExact(seats);
    for (Py_ssize_t i = 0; plain && i < PyList_GET_SIZE(seats); i++) {
        PyObject *s = PyList_GET_ITEM(seats, i);
        long long v = PyLong_CheckExact(s) ? PyLong_AsLongLong(s) : -1;
        if (v == -1 && PyErr_Occurred()) PyErr_Clear();
        if (v < 0 || v >= r->n) plain = 0; else won |= 1ull << v;
    }
    rt_decref(seats);
    if (!plain) return 3;  /* (its function changes nothing: the Python loop runs it again, and refuses them) */
    PyObject *winners = PyList_New(0);
    if (!winners) return -1;
    for (int64_t v = 0; v < r->n; v++)
        if (won >> v & 1) {
            PyObject *o = PyLong_FromLongLong(v);
            int bad = !o || PyList_Append(winners, o) < 0;
            Py_XDECREF(o);
            if (bad) { Py_DECREF(winners); return -1; }
        }
    Py_XSETREF(CS_SLOT(r->st, CSI_winners), winners);
    return PyList_SetSlice(frames, 0, PyList_GET_SIZE(frames), NULL) < 0 ? -1 : 2;
}

/* The state's frames run on to the next decision: the Pending made there; None once the game is over (no
 * frame left); False where the Python loop is to go on from the frame's position.  run(state, program) gives
 * it settled (rt_settle). */
static PyObject *rt_run_frames(PyObject *st, Program *pg, PyObject *frames) {  /* steals frames */
    if (!PyList_CheckExact(frames)) { rt_decref(frames); Py_RETURN_FALSE; }
    R rr; R *r = &rr;
    if (rt_open(r, st, NULL) < 0) { rt_decref(frames); return NULL; }
    r->budget = RT_STEP_LIMIT;  /* one budget for the whole run */
    r->site = -1;
    int64_t steps = 0;
    PyObject *result = NULL, *fr = NULL;
    Py_ssize_t pc = 0;
    while (PyList_GET_SIZE(frames) > 0) {
        fr = PyList_GET_ITEM(frames, PyList_GET_SIZE(frames) - 1);
        if (!PyList_CheckExact(fr) || PyList_GET_SIZE(fr) != 3) goto hand_over;
        Py_ssize_t proc = rt_frame_int(PyList_GET_ITEM(fr, 0), pg->nprocs);
        PyObject *env = PyList_GET_ITEM(fr, 2);
        if (proc < 0 || !PyDict_CheckExact(env)) goto hand_over;
        RtIns *code = pg->ins + pg->start[proc];
        Py_ssize_t n = pg->len[proc];
        pc = rt_frame_int(PyList_GET_ITEM(fr, 1), n);
        if (pc < 0) goto hand_over;
        Py_INCREF(fr); Py_INCREF(env);  /* the frame may be popped by nothing but us; held all the same */
        int next = 0;  /* 1: the next frame; 2: stopped (result set); 3: hand over; -1: error */
        while (!next) {
            RtIns *in = &code[pc];
            PyObject *argv[3] = {st, env, in->obj};
            switch (in->op) {
            case OP_RESUME: {
                if (++steps > RT_STEP_LIMIT) { r->site = -1; rt_stuck(); next = -1; break; }
                int64_t ret = -1; PyObject *ro = NULL;
                r->env = env; r->site = -1;
                int bad = RT_BODIES[in->body](r, argv, 2, &ret, &ro);
                rt_release(r);
                if (bad) { next = -1; break; }
                if (ro) {  /* a continuation returns its next stop as a number */
                    Py_ssize_t got = PyLong_Check(ro) ? PyLong_AsSsize_t(ro) : -1;
                    rt_decref(ro);
                    if (got == -1 && PyErr_Occurred()) { next = -1; break; }
                    ret = got;
                }
                if (ret < 0 || ret >= n) {
                    PyErr_SetString(PyExc_SystemError, "generated code went on to no instruction");
                    r->site = -1; next = -1; break;
                }
                pc = (Py_ssize_t)ret;
                break;
            }
            case OP_CALL: {
                if (PyList_GET_SIZE(frames) >= RT_MAX_CALL_DEPTH) { next = 3; break; }
                r->env = env;
                PyObject *made = NULL;
                if (rt_run_pure(r, in, argv, 2, &made) < 0) { next = -1; break; }
                if (rt_frame_set_pc(fr, pc + 1) < 0) { rt_decref(made); next = -1; break; }
                PyObject *nf = rt_frame_new(in->target, made);
                if (!nf) { next = -1; break; }
                int bad = PyList_Append(frames, nf);
                rt_decref(nf);
                if (bad) { next = -1; break; }
                next = 1;
                break;
            }
            case OP_RETURN: {  /* frames.pop(): the list keeps its room for the next call */
                Py_ssize_t last = PyList_GET_SIZE(frames) - 1;
                PyObject *gone = PyList_GET_ITEM(frames, last);
                Py_SET_SIZE(frames, last);
                rt_decref(gone);  /* (fr is held: its locals outlive this) */
                next = 1;
                break;
            }
            case OP_CHOOSE:
            case OP_CHANCE: {
                if (rt_frame_set_pc(fr, pc) < 0) { next = -1; break; }
                r->env = env;
                PyObject *made = NULL;
                if (rt_run_pure(r, in, argv, 3, &made) < 0) { next = -1; break; }
                result = made;
                next = 2;
                break;
            }
            default:  /* FINISH (the run ends here: no more frames) */
                r->env = env;
                if ((next = rt_finish(r, in, argv, frames)) == 2) result = Py_NewRef(Py_None);
                break;
            }
        }
        if (next == 3 && rt_frame_set_pc(fr, pc) < 0) next = -1;
        rt_decref(env);
        if (next == -1) {
            PyObject *et, *ev, *tb;
            PyErr_Fetch(&et, &ev, &tb);
            PyErr_NormalizeException(&et, &ev, &tb);
            rt_place(r, ev);
            if (PyList_GET_SIZE(fr) == 3) {  /* where Python's loop leaves it: at the instruction that failed */
                PyObject *v = PyLong_FromSsize_t(pc);
                if (v) PyList_SetItem(fr, 1, v); else PyErr_Clear();
            }
            rt_decref(fr);
            PyErr_Restore(et, ev, tb);
            r->site = -1;
            rt_end(r, -1);
            rt_decref(frames);
            return NULL;
        }
        rt_frame_done(fr);
        if (next == 2) break;
        if (next == 3) goto hand_over;
    }
    rt_decref(frames);
    if (rt_end(r, 0) < 0) { Py_XDECREF(result); return NULL; }
    return result ? result : Py_NewRef(Py_None);
hand_over:
    rt_decref(frames);
    if (rt_end(r, 0) < 0) return NULL;
    Py_RETURN_FALSE;
}

/* What a run gave, settled where it can be: the decision reached with 1 to RT_MAX_OPTIONS options made the
 * state's pending one, or the end of the game (no pending), and True returned; else what the run gave (a
 * decision for Python to refuse, False to go on in Python).  Steals `made`. */
#define RT_MAX_OPTIONS 100000
static PyObject *rt_settle(PyObject *st, PyObject *made) {
    if (!made || made == Py_False) return made;
    if (made != Py_None) {
        if (Py_TYPE(made) != (PyTypeObject *)PENDING) return made;
        PyObject *options = rt_pending_attr(made, 2, S_options);
        if (!options) { rt_decref(made); return NULL; }
        Py_ssize_t n = Py_TYPE(options) == &OptionsType ? ((Options *)options)->n
                       : PyList_CheckExact(options) ? PyList_GET_SIZE(options) : 0;
        rt_decref(options);
        if (n < 1 || n > RT_MAX_OPTIONS) return made;
    }
    int bad = rt_set_attr(st, CSI_pending, S_pending, made);
    rt_decref(made);
    if (bad < 0) return NULL;
    Py_RETURN_TRUE;
}

static PyObject *rt_run_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || Py_TYPE(args[1]) != &ProgramType) {
        PyErr_SetString(PyExc_TypeError, "run(state, program)");
        return NULL;
    }
    rt_state_layout(Py_TYPE(args[0]));
    PyObject *frames = rt_attr(args[0], CSI_frames, S_frames);
    if (!frames) return NULL;
    return rt_settle(args[0], rt_run_frames(args[0], (Program *)args[1], frames));
}

/* The options taken (see rt_advance_py), kept for the next time the same option of the same decision is taken:
 * its (branch, values) tuple and its history entry (decision, option).  Equal options are equal tuples of
 * immutable values (numbers, yes/no, texts, keys: what an Options array holds), so one may stand for the
 * other: a decision taken again allocates neither.  A table of RT_TAKEN slots, each replaced by the last
 * option that falls in it (owned references). */
#define RT_TAKEN 1024
#define RT_TAKEN_WIDTH 4
typedef struct {
    PyObject *decision;          /* (owned by entry) */
    const signed char *shape;    /* the Options' branch shapes: the kinds of the values */
    int branch, nv;
    int64_t v[RT_TAKEN_WIDTH];
    PyObject *option, *entry;    /* (owned) */
} Taken;
static Taken TAKEN[RT_TAKEN];

/* The (borrowed) slot holding option `index` of o, a decision's options, with its option and entry made. */
static Taken *rt_taken(Options *o, PyObject *decision, Py_ssize_t index) {
    int b = o->branch[index];
    const signed char *shape = o->shape;
    int nv = shape[(size_t)b * (size_t)o->shape_stride];
    const int64_t *v = o->vals + (size_t)index * (size_t)o->width;
    static Taken wide;  /* an option of more values than a slot holds: made anew each time */
    Taken *t = &wide;
    if (nv <= RT_TAKEN_WIDTH) {
        uint64_t h = ((uint64_t)(uintptr_t)decision >> 4) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)b * 0xBF58476D1CE4E5B9ULL;
        for (int k = 0; k < nv; k++) h = (h ^ (uint64_t)v[k]) * 0x94D049BB133111EBULL;
        t = &TAKEN[(h ^ (h >> 29)) & (RT_TAKEN - 1)];
        if (t->option && t->decision == decision && t->shape == shape && t->branch == b && t->nv == nv) {
            int same = 1;
            for (int k = 0; k < nv; k++) same &= t->v[k] == v[k];
            if (same) return t;
        }
    }
    PyObject *option = options_item((PyObject *)o, index);
    PyObject *entry = option ? PyTuple_Pack(2, decision, option) : NULL;
    if (!entry) { Py_XDECREF(option); return NULL; }
    PyObject *old_option = t->option, *old_entry = t->entry;
    t->decision = decision; t->shape = shape; t->branch = b; t->nv = nv;
    for (int k = 0; k < nv && k < RT_TAKEN_WIDTH; k++) t->v[k] = v[k];
    t->option = option; t->entry = entry;
    Py_XDECREF(old_option); Py_XDECREF(old_entry);
    return t;
}

/* advance(state, program, index): State.apply_index for the pending decision's option `index`, then the run
 * on to the next decision (as run).  NotImplemented, the state unchanged, where the Python code is to take
 * it: an index that is not a plain int (a bool, numpy's), a state or Pending not laid out as expected (a
 * subclass), a state that lists lazily, no decision pending, an index out of range (Python refuses it),
 * options not held in C arrays, a log or invariants to check, an option whose text must be written now (see
 * native.runner).  The state's fields are read in place (borrowed): nothing runs between the reads and
 * their use that could change them. */
static PyObject *rt_advance_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3 || Py_TYPE(args[1]) != &ProgramType) {
        PyErr_SetString(PyExc_TypeError, "advance(state, program, index)");
        return NULL;
    }
    PyObject *st = args[0];
    if (!PyLong_CheckExact(args[2]) || !rt_state_layout(Py_TYPE(st)) || !PENDING_FAST) Py_RETURN_NOTIMPLEMENTED;
    Program *pg = (Program *)args[1];
    Py_ssize_t index = PyLong_AsSsize_t(args[2]);
    if (index == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_NOTIMPLEMENTED; }
    PyObject *p = CS_SLOT(st, CSI_pending), *frames = CS_SLOT(st, CSI_frames), *history = CS_SLOT(st, CSI_history);
    PyObject *trail = CS_SLOT(st, CSI_trail), *rng = CS_SLOT(st, CSI_rng);
    if (!p || Py_TYPE(p) != (PyTypeObject *)PENDING || CS_SLOT(st, CSI_log) != Py_None
        || CS_SLOT(st, CSI_check_invariants) != Py_False || CS_SLOT(st, CSI_lazy) != Py_False  /* (lazy: in Python) */
        || !frames || !PyList_CheckExact(frames) || PyList_GET_SIZE(frames) < 1 || !history || !PyList_CheckExact(history)
        || !trail || !rng) Py_RETURN_NOTIMPLEMENTED;
    PyObject *options = *(PyObject **)((char *)p + PENDING_AT[2]), *decision = *(PyObject **)((char *)p + PENDING_AT[0]);
    PyObject *texts = *(PyObject **)((char *)p + PENDING_AT[3]);
    if (!options || Py_TYPE(options) != &OptionsType || !decision || !texts) Py_RETURN_NOTIMPLEMENTED;
    Options *o = (Options *)options;
    if (index < 0 || index >= o->n) Py_RETURN_NOTIMPLEMENTED;
    PyObject *fr = PyList_GET_ITEM(frames, PyList_GET_SIZE(frames) - 1);
    if (!PyList_CheckExact(fr) || PyList_GET_SIZE(fr) != 3 || !PyDict_CheckExact(PyList_GET_ITEM(fr, 2)))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t proc = rt_frame_int(PyList_GET_ITEM(fr, 0), pg->nprocs);
    if (proc < 0) Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t pc = rt_frame_int(PyList_GET_ITEM(fr, 1), pg->len[proc]);
    if (pc < 0) Py_RETURN_NOTIMPLEMENTED;
    RtIns *in = &pg->ins[pg->start[proc] + pc];
    if ((in->op != OP_CHOOSE && in->op != OP_CHANCE) || in->obj != decision) Py_RETURN_NOTIMPLEMENTED;
    int b = o->branch[index];
    if (b >= PyTuple_GET_SIZE(in->branches)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *br = PyTuple_GET_ITEM(in->branches, b);
    PyObject *names = PyTuple_GET_ITEM(br, 1);
    if (PyTuple_GET_SIZE(names) != o->shape[(size_t)b * (size_t)o->shape_stride]) Py_RETURN_NOTIMPLEMENTED;
    PyObject *text = NULL;
    if (PyList_CheckExact(texts) && index < PyList_GET_SIZE(texts) && PyUnicode_CheckExact(PyList_GET_ITEM(texts, index)))
        text = PyList_GET_ITEM(texts, index);
    else if (PyTuple_GET_ITEM(br, 2) != Py_True)
        Py_RETURN_NOTIMPLEMENTED;  /* a text that may be refused: written now, in Python */
    Taken *tk = rt_taken(o, decision, index);
    if (!tk) return NULL;
    PyObject *option = Py_NewRef(tk->option);  /* (held: the slot may be taken by the run below) */
    /* the state changes from here on, as State._advance changes it */
    if (PyList_Append(history, text ? text : tk->entry) < 0) { rt_decref(option); return NULL; }
    PyObject *cell = PyTuple_New(3);
    if (!cell) { rt_decref(option); return NULL; }
    PyTuple_SET_ITEM(cell, 0, Py_NewRef(trail)); PyTuple_SET_ITEM(cell, 1, Py_NewRef(option));
    PyTuple_SET_ITEM(cell, 2, Py_NewRef(rng));
    Py_SETREF(CS_SLOT(st, CSI_trail), cell);
    PyObject *values = PyTuple_GET_ITEM(option, 1), *env = PyList_GET_ITEM(fr, 2);
    uint64_t env_tag = RT_DICT_TAG(env);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(names); k++)
        if (PyDict_SetItem(env, PyTuple_GET_ITEM(names, k), PyTuple_GET_ITEM(values, k)) < 0) {
            rt_decref(option); return NULL;
        }
    rt_locals_rebound(proc, env, env_tag, names);  /* (the procedure's other locals stay held) */
    rt_decref(option);
    Py_SETREF(PyList_GET_ITEM(fr, 1), Py_NewRef(PyTuple_GET_ITEM(br, 0)));
    Py_INCREF(frames);  /* (rt_run_frames steals it) */
    CS_SLOT(st, CSI_pending) = Py_NewRef(Py_None);
    if (!rt_pending_spare(p)) rt_decref(p);  /* the state's reference, now ours */
    return rt_settle(st, rt_run_frames(st, pg, frames));
}

/* ------------------------------------------------------------------ clone
 * copy_state(state, copy): the data State.clone copies (vals, zones, loc, face_up, seen, used, frames), copied
 * into a new State the same way, in C; NotImplemented (the copy untouched) where some part is not of the kind
 * a state holds, for Python to copy. */

/* {k: v.copy()} of a dict of dicts (inner 0), of lists (1), of dicts of lists (2) or of sets (3); NULL with
 * no error set if some part is not of that kind.  The dict is copied whole (its keys' table at once, no
 * growing) and each value then replaced by its copy: setting a key present neither resizes the dict nor
 * moves the walk. */
static PyObject *rt_copy_map(PyObject *d, int inner) {
    if (!PyDict_CheckExact(d)) return NULL;
    PyObject *out = PyDict_Copy(d);
    if (!out) return NULL;
    Py_ssize_t pos = 0; PyObject *k, *v;
    while (PyDict_Next(out, &pos, &k, &v)) {
        PyObject *c = NULL;
        if (inner == 0) {
            c = PyDict_CheckExact(v) ? PyDict_Copy(v) : NULL;
            if (c) rt_mirror_twin(v, c);
        }
        else if (inner == 1) c = PyList_CheckExact(v) ? PyList_GetSlice(v, 0, PyList_GET_SIZE(v)) : NULL;
        else if (inner == 2) c = rt_copy_map(v, 1);
        else c = PyAnySet_CheckExact(v) && PySet_Check(v) ? PySet_New(v) : NULL;
        if (!c || PyDict_SetItem(out, k, c) < 0) { Py_XDECREF(c); Py_DECREF(out); return NULL; }
        Py_DECREF(c);
    }
    return out;
}

static PyObject *rt_copy_list(PyObject *l) {
    return PyList_CheckExact(l) ? PyList_GetSlice(l, 0, PyList_GET_SIZE(l)) : NULL;
}

/* [[procedure, instruction, locals copied (and each list in them)] for each frame] */
static PyObject *rt_copy_frames(PyObject *frames) {
    if (!PyList_CheckExact(frames)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(frames);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyList_GET_ITEM(frames, i);
        if (!PyList_CheckExact(f) || PyList_GET_SIZE(f) != 3 || !PyDict_CheckExact(PyList_GET_ITEM(f, 2))) {
            Py_DECREF(out); return NULL;
        }
        PyObject *env = PyDict_Copy(PyList_GET_ITEM(f, 2));
        if (!env) { Py_DECREF(out); return NULL; }
        Py_ssize_t pos = 0; PyObject *k, *v;
        while (PyDict_Next(env, &pos, &k, &v)) {
            if (!PyList_CheckExact(v)) continue;
            PyObject *c = PyList_GetSlice(v, 0, PyList_GET_SIZE(v));
            /* replacing the value of a key present does not resize the dict: the walk goes on */
            if (!c || PyDict_SetItem(env, k, c) < 0) { Py_XDECREF(c); Py_DECREF(env); Py_DECREF(out); return NULL; }
            Py_DECREF(c);
        }
        PyObject *nf = PyList_New(3);
        if (!nf) { Py_DECREF(env); Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(nf, 0, Py_NewRef(PyList_GET_ITEM(f, 0)));
        PyList_SET_ITEM(nf, 1, Py_NewRef(PyList_GET_ITEM(f, 1)));
        PyList_SET_ITEM(nf, 2, env);
        PyList_SET_ITEM(out, i, nf);
    }
    return out;
}

/* clone_state(state): State.clone in C: a new State of the same class, every slot as State.clone sets it (the
 * data copied, the rest shared, the budget full, a listed pending decision copied); NotImplemented where the
 * class is not laid out as expected (its slots, each a plain slot, all set) or the decision waits unlisted. */
enum { CS_SHARE, CS_LIST, CS_LIST_OR_NONE, CS_MAP0, CS_MAP2, CS_MAP3, CS_FRAMES, CS_BUDGET, CS_PENDING };
static const int CS_KINDS[] = {CS_LIST, CS_SHARE, CS_BUDGET, CS_SHARE, CS_LIST, CS_FRAMES, CS_SHARE, CS_SHARE, CS_LIST,
                               CS_LIST_OR_NONE, CS_SHARE, CS_PENDING, CS_SHARE, CS_SHARE, CS_SHARE, CS_LIST, CS_SHARE,
                               CS_SHARE, CS_SHARE, CS_MAP3, CS_MAP0, CS_SHARE, CS_LIST_OR_NONE, CS_SHARE, CS_MAP2};

_Static_assert(sizeof(CS_KINDS) / sizeof(CS_KINDS[0]) == CS_SLOTS, "a kind per slot");

/* The full budget as a Python int, made once (an int is immutable: every clone may share it). */
static PyObject *RT_FULL_BUDGET;
static PyObject *rt_full_budget(void) {
    if (!RT_FULL_BUDGET) RT_FULL_BUDGET = PyLong_FromLongLong(RT_STEP_LIMIT);
    return RT_FULL_BUDGET ? Py_NewRef(RT_FULL_BUDGET) : NULL;
}

static PyObject *rt_clone_into(PyObject *st, PyObject *into);

static PyObject *rt_clone_state_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs == 2 && args[1] != Py_None) return rt_clone_into(args[0], args[1]);
    if (nargs != 1 && nargs != 2) { PyErr_SetString(PyExc_TypeError, "clone_state(state[, into])"); return NULL; }
    PyObject *st = args[0];
    if (!rt_state_layout(Py_TYPE(st))) Py_RETURN_NOTIMPLEMENTED;
    for (int i = 0; i < CS_SLOTS; i++) if (!CS_SLOT(st, i)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *c = Py_TYPE(st)->tp_alloc(Py_TYPE(st), 0);  /* (the class of st: State, or this module's subclass) */
    if (!c) return NULL;
    for (int i = 0; i < CS_SLOTS; i++) {
        PyObject *v = CS_SLOT(st, i), *made = NULL;
        switch (CS_KINDS[i]) {
        case CS_SHARE: made = Py_NewRef(v); break;
        case CS_BUDGET: made = rt_full_budget(); break;
        case CS_LIST: made = rt_copy_list(v); break;
        case CS_LIST_OR_NONE: made = v == Py_None ? Py_NewRef(v) : rt_copy_list(v); break;
        case CS_MAP0: made = rt_copy_map(v, 0); break;
        case CS_MAP2: made = rt_copy_map(v, 2); break;
        case CS_MAP3: made = rt_copy_map(v, 3); break;
        case CS_FRAMES: made = rt_copy_frames(v); break;
        case CS_PENDING:
            if (v == Py_None) { made = Py_NewRef(v); break; }
            if (Py_TYPE(v) != (PyTypeObject *)PENDING || !PENDING_FAST) break;
            {
                PyObject *options = *(PyObject **)((char *)v + PENDING_AT[2]);
                if (!options || !(Py_TYPE(options) == &OptionsType || PyList_CheckExact(options)
                                  || (PyObject *)Py_TYPE(options) == VALUES)) break;
                made = ((PyTypeObject *)PENDING)->tp_alloc((PyTypeObject *)PENDING, 0);
                if (!made) break;
                for (int k = 0; k < RT_PENDING_FIELDS; k++) {  /* decision, player, options, texts, by_text */
                    PyObject *x = k < 5 ? *(PyObject **)((char *)v + PENDING_AT[k]) : Py_None;
                    *(PyObject **)((char *)made + PENDING_AT[k]) = Py_NewRef(x ? x : Py_None);
                }
            }
            break;
        }
        if (!made) {
            Py_DECREF(c);
            if (PyErr_Occurred()) return NULL;  /* out of memory */
            Py_RETURN_NOTIMPLEMENTED;
        }
        CS_SLOT(c, i) = made;
    }
    return c;
}

/* ------------------------------------------------------------------ clone into
 * clone_state(state, into): the copy State.clone makes, made in `into`, a State no longer needed (perft and a
 * search copy one state into the same spare state again and again).  Every part of `into` that it alone holds
 * (a reference count of 1: nobody else can see it change) and that has the kind and the keys, in the same order,
 * of the state's part is rewritten in place: only the values that differ are set (a dict's version tag moves on
 * only where something changed, so the mirrors and held locals keyed by it stay right), no dict, list or keys
 * table is made or freed.  Any other part is replaced by a copy, as State.clone makes it.  Afterwards `into`
 * holds no container the state (or anybody else) holds: the same independence as a new clone.  NotImplemented
 * (for Python to copy) where clone_state would say so, or `into` is not a State laid out as expected; on an
 * error, `into` is left half rewritten. */

/* What a table's dict of a target last became a copy of, by version tags (RT_MIRRORS): while neither dict has
 * changed since (any change gives a dict a new tag, and no two dicts ever have the same tag) they hold the same,
 * and the copy is skipped.  One entry per slot, found by the target dict's address. */
typedef struct { PyObject *dst; uint64_t dst_tag; PyObject *src; uint64_t src_tag; } CopiedSlot;
#define RT_COPIED_BITS 10
static CopiedSlot COPIED[1 << RT_COPIED_BITS];

static inline CopiedSlot *rt_copied_slot(PyObject *d) {  /* (dicts lie at like offsets of their pools: mixed) */
    return &COPIED[((uint64_t)(uintptr_t)d * 0x9E3779B97F4A7C15ull) >> (64 - RT_COPIED_BITS)];
}

static inline int rt_copied_same(PyObject *d, PyObject *s) {
    CopiedSlot *c = rt_copied_slot(d);
    return RT_MIRRORS && c->dst == d && c->src == s && c->dst_tag == RT_DICT_TAG(d) && c->src_tag == RT_DICT_TAG(s);
}

static inline void rt_copied(PyObject *d, PyObject *s) {
    if (!RT_MIRRORS) return;
    CopiedSlot *c = rt_copied_slot(d);
    c->dst = d; c->dst_tag = RT_DICT_TAG(d); c->src = s; c->src_tag = RT_DICT_TAG(s);
}

/* The values a dict of the target let go of while it is rewritten, held until the copy is made (rt_unbury): no
 * value is freed (and no __del__ of one runs) while its entries are read in place. */
static PyObject *RT_GRAVE;

static int rt_bury(PyObject *v) {
    if (!RT_GRAVE && !(RT_GRAVE = PyList_New(0))) return -1;
    return PyList_Append(RT_GRAVE, v);
}

static void rt_unbury(void) {
    if (!RT_GRAVE || !PyList_GET_SIZE(RT_GRAVE)) return;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);  /* (an error of the copy stays the error) */
    if (PyList_SetSlice(RT_GRAVE, 0, PyList_GET_SIZE(RT_GRAVE), NULL) < 0) PyErr_Clear();
    PyErr_Restore(type, value, tb);
}

/* Whether the target's part d may be rewritten in place to hold what s holds. */
static inline int rt_own_part(PyObject *d, PyObject *s, PyTypeObject *type) {
    return Py_IS_TYPE(d, type) && Py_REFCNT(d) == 1 && d != s;
}

/* List d (own) made to hold s's items (the same objects, as a copy holds them): 1 if it changed, 0 if it held
 * them already, -1 on error. */
static int rt_assign_list(PyObject *d, PyObject *s) {
    Py_ssize_t n = PyList_GET_SIZE(s);
    if (PyList_GET_SIZE(d) == n
        && (n == 0 || memcmp(((PyListObject *)d)->ob_item, ((PyListObject *)s)->ob_item, sizeof(PyObject *) * (size_t)n) == 0))
        return 0;
    return PyList_SetSlice(d, 0, PyList_GET_SIZE(d), s) < 0 ? -1 : 1;
}

/* Dict d (own) made to hold s's items: 1 if done, 0 if their keys differ (in number, identity or order: d then
 * holds some of s's values and is to be replaced by a copy), -1 on error.  inner (as rt_copy_map's, and 4 for a
 * frame's locals) says which values are containers the copy holds its own of: an own one is rewritten in place
 * (a table's dict as rt_assign_dict, a zone's list), any other set to a copy. */
static int rt_assign_map(PyObject *d, PyObject *s, int inner);

static int rt_assign_value(PyObject *d, PyObject *k, PyObject *vd, PyObject *vs, int inner) {
    /* 1 if something was set (in d, or in the container d holds), 0 if all was as it is to be, -1 on error */
    if (inner == 5) {  /* a value shared, as dict.copy() shares it */
        return vd == vs ? 0 : rt_bury(vd) < 0 || PyDict_SetItem(d, k, vs) < 0 ? -1 : 1;
    }
    if (inner == 4) {  /* a local: a list is copied (rt_copy_frames), any other value shared */
        if (!PyList_CheckExact(vs)) return vd == vs ? 0 : rt_bury(vd) < 0 || PyDict_SetItem(d, k, vs) < 0 ? -1 : 1;
        if (rt_own_part(vd, vs, &PyList_Type) && PyList_GET_SIZE(vd) == PyList_GET_SIZE(vs)
            && memcmp(((PyListObject *)vd)->ob_item, ((PyListObject *)vs)->ob_item,
                      sizeof(PyObject *) * (size_t)PyList_GET_SIZE(vs)) == 0)
            return 0;
        PyObject *c = PyList_GetSlice(vs, 0, PyList_GET_SIZE(vs));
        int bad = !c || rt_bury(vd) < 0 || PyDict_SetItem(d, k, c) < 0;
        Py_XDECREF(c);
        return bad ? -1 : 1;
    }
    int done = 0;  /* 1 rewritten in place, 2 as it was already */
    if (inner == 0 && PyDict_CheckExact(vs) && rt_own_part(vd, vs, &PyDict_Type)) {
        done = rt_copied_same(vd, vs) ? 2 : rt_assign_map(vd, vs, 5);
        if (done > 0) { rt_mirror_twin(vs, vd); rt_copied(vd, vs); }
    } else if (inner == 1 && PyList_CheckExact(vs) && rt_own_part(vd, vs, &PyList_Type)) {
        done = rt_assign_list(vd, vs);
        done = done < 0 ? -1 : done ? 1 : 2;
    } else if (inner == 2 && PyDict_CheckExact(vs) && rt_own_part(vd, vs, &PyDict_Type)) {
        done = rt_assign_map(vd, vs, 1);
    } else if (inner == 3 && PyAnySet_CheckExact(vs) && PySet_Check(vs) && PySet_GET_SIZE(vs) == 0
               && rt_own_part(vd, vs, &PySet_Type) && PySet_GET_SIZE(vd) == 0) {
        done = 2;  /* (a set is copied unless both are empty) */
    }
    if (done) return done < 0 ? -1 : done == 1;
    PyObject *c = NULL;  /* a copy, as rt_copy_map makes it */
    if (inner == 0) { c = PyDict_CheckExact(vs) ? PyDict_Copy(vs) : NULL; if (c) rt_mirror_twin(vs, c); }
    else if (inner == 1) c = PyList_CheckExact(vs) ? PyList_GetSlice(vs, 0, PyList_GET_SIZE(vs)) : NULL;
    else if (inner == 2) c = rt_copy_map(vs, 1);
    else c = PyAnySet_CheckExact(vs) && PySet_Check(vs) ? PySet_New(vs) : NULL;
    if (!c) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a state's part is not of the kind a state holds");
        return -1;
    }
    int bad = rt_bury(vd) < 0 || PyDict_SetItem(d, k, c) < 0;
    if (!bad && inner == 0) rt_copied(c, vs);
    Py_DECREF(c);
    return bad ? -1 : 1;
}

/* A dict's entries read in place, in their order (where deleted ones are NULL): CPython 3.11's layout, checked
 * once against PyDict_Next (rt_entries_checked); elsewhere, or where the check fails, dicts are walked by
 * PyDict_Next, which reads every str key's hash from the key (a cache miss for each key of a large table). */
typedef struct { PyObject **at; Py_ssize_t n, stride; int kind; } RtEntries;  /* key i at[i * stride], value next */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
typedef struct {
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size, dk_log2_index_bytes, dk_kind;
    uint32_t dk_version;
    Py_ssize_t dk_usable, dk_nentries;
    char dk_indices[];
} RtDictKeys;
#define RT_DICT_ENTRIES 1
#endif
static int RT_ENTRIES_OK;  /* 0 not checked yet, 1 the layout holds, -1 it does not */

static int rt_entries_raw(PyObject *d, RtEntries *e) {
#ifdef RT_DICT_ENTRIES
    PyDictObject *mp = (PyDictObject *)d;
    if (!PyDict_CheckExact(d) || mp->ma_values) return 0;
    RtDictKeys *k = (RtDictKeys *)mp->ma_keys;
    if (k->dk_kind > 1 || k->dk_log2_index_bytes > 40 || k->dk_nentries < PyDict_GET_SIZE(d)) return 0;
    PyObject **base = (PyObject **)(k->dk_indices + ((size_t)1 << k->dk_log2_index_bytes));
    e->kind = k->dk_kind;
    e->stride = k->dk_kind == 0 ? 3 : 2;  /* (hash, key, value) or (key, value) */
    e->at = base + (k->dk_kind == 0 ? 1 : 0);
    e->n = k->dk_nentries;
    return 1;
#else
    (void)d; (void)e;
    return 0;
#endif
}

/* Whether the layout read by rt_entries_raw is this Python's: dicts of either kind of keys, one with a deleted
 * entry, read both ways. */
static int rt_entries_checked(void) {
    int ok = 1;
    for (int kind = 0; kind < 2 && ok; kind++) {
        PyObject *d = PyDict_New();
        if (!d) { PyErr_Clear(); return 0; }
        for (long i = 0; i < 40 && ok; i++) {
            PyObject *k = kind ? PyUnicode_FromFormat("k%ld", i) : PyLong_FromLong(i * 7919);
            PyObject *v = PyLong_FromLong(i);
            ok = k && v && PyDict_SetItem(d, k, v) == 0 && (i != 17 || PyDict_DelItem(d, k) == 0);
            Py_XDECREF(k); Py_XDECREF(v);
        }
        RtEntries e;
        ok = ok && rt_entries_raw(d, &e) && e.kind == kind;
        Py_ssize_t pos = 0, j = 0; PyObject *k, *v;
        while (ok && PyDict_Next(d, &pos, &k, &v)) {
            while (j < e.n && !e.at[j * e.stride + 1]) j++;
            ok = j < e.n && e.at[j * e.stride] == k && e.at[j * e.stride + 1] == v;
            j++;
        }
        while (ok && j < e.n) ok = !e.at[j++ * e.stride + 1];
        Py_DECREF(d);
    }
    PyErr_Clear();
    return ok;
}

static inline int rt_entries(PyObject *d, RtEntries *e) {
    if (RT_ENTRIES_OK == 0) RT_ENTRIES_OK = rt_entries_checked() ? 1 : -1;
    return RT_ENTRIES_OK > 0 && rt_entries_raw(d, e);
}

static int rt_assign_map(PyObject *d, PyObject *s, int inner) {
    if (PyDict_GET_SIZE(d) != PyDict_GET_SIZE(s)) return 0;
    RtEntries ed, es;
    if (rt_entries(d, &ed) && rt_entries(s, &es)) {
        /* the same keys at the same entries: values compared without reading a key */
        if (ed.kind != es.kind || ed.n != es.n) return 0;
        for (Py_ssize_t i = 0; i < es.n; i++) {
            PyObject *ks = es.at[i * es.stride], *vs = es.at[i * es.stride + 1], *vd = ed.at[i * ed.stride + 1];
            if (ed.at[i * ed.stride] != ks || !vs != !vd) return 0;
            if (!vs || (vd == vs && inner == 5)) continue;
            int set = rt_assign_value(d, ks, vd, vs, inner);
            if (set < 0) return -1;
            /* (setting a key present leaves the entries where they are, unless a value's __del__ changed d) */
            if (set && (!rt_entries(d, &ed) || ed.n != es.n || !rt_entries(s, &es) || es.n != ed.n)) return 0;
        }
        return 1;
    }
    /* setting the value of a key present neither resizes d nor moves the walks; where a key differs, d (some of
     * its values set) is replaced whole */
    Py_ssize_t ps = 0, pd = 0; PyObject *ks, *vs, *kd, *vd;
    while (PyDict_Next(s, &ps, &ks, &vs)) {
        if (!PyDict_Next(d, &pd, &kd, &vd) || kd != ks) return 0;
        if (rt_assign_value(d, ks, vd, vs, inner) < 0) return -1;
    }
    return 1;
}

/* The state's frames copied into the target's list of frames d (own): its frames that are its own rewritten. */
static int rt_assign_frames(PyObject *d, PyObject *s) {
    Py_ssize_t n = PyList_GET_SIZE(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyList_GET_ITEM(s, i);
        if (!PyList_CheckExact(f) || PyList_GET_SIZE(f) != 3 || !PyDict_CheckExact(PyList_GET_ITEM(f, 2))) return 0;
    }
    if (PyList_GET_SIZE(d) > n && PyList_SetSlice(d, n, PyList_GET_SIZE(d), NULL) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyList_GET_ITEM(s, i);
        PyObject *g = i < PyList_GET_SIZE(d) ? PyList_GET_ITEM(d, i) : NULL;
        if (g && rt_own_part(g, f, &PyList_Type) && PyList_GET_SIZE(g) == 3) {
            PyObject *env = PyList_GET_ITEM(g, 2), *senv = PyList_GET_ITEM(f, 2);
            int done = rt_own_part(env, senv, &PyDict_Type) ? rt_assign_map(env, senv, 4) : 0;
            if (done < 0) return -1;
            if (done) {
                for (int j = 0; j < 2; j++) {
                    PyObject *x = PyList_GET_ITEM(f, j);
                    if (PyList_GET_ITEM(g, j) != x) Py_SETREF(((PyListObject *)g)->ob_item[j], Py_NewRef(x));
                }
                continue;
            }
        }
        PyObject *one = PyList_GetSlice(s, i, i + 1), *copied = one ? rt_copy_frames(one) : NULL;
        Py_XDECREF(one);
        if (!copied) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a frame is not as a state holds it"); return -1; }
        int bad = g ? (rt_bury(g) < 0 ? -1 : PyList_SetItem(d, i, Py_NewRef(PyList_GET_ITEM(copied, 0))))
                    : PyList_Append(d, PyList_GET_ITEM(copied, 0));
        Py_DECREF(copied);
        if (bad < 0) return -1;
    }
    return 1;
}

static PyObject *rt_clone_into_parts(PyObject *st, PyObject *into);

static PyObject *rt_clone_into(PyObject *st, PyObject *into) {
    PyObject *out = rt_clone_into_parts(st, into);
    rt_unbury();
    return out;
}

static PyObject *rt_clone_into_parts(PyObject *st, PyObject *into) {
    if (into == st || !rt_state_layout(Py_TYPE(st)) || Py_TYPE(into) != Py_TYPE(st)) Py_RETURN_NOTIMPLEMENTED;
    for (int i = 0; i < CS_SLOTS; i++) if (!CS_SLOT(st, i) || !CS_SLOT(into, i)) Py_RETURN_NOTIMPLEMENTED;
    /* the pending decision first: only a listed one is copied here (as clone_state) */
    PyObject *p = CS_SLOT(st, CSI_pending);
    if (p != Py_None) {
        if (Py_TYPE(p) != (PyTypeObject *)PENDING || !PENDING_FAST) Py_RETURN_NOTIMPLEMENTED;
        PyObject *options = *(PyObject **)((char *)p + PENDING_AT[2]);
        if (!options || !(Py_TYPE(options) == &OptionsType || PyList_CheckExact(options)
                          || (PyObject *)Py_TYPE(options) == VALUES)) Py_RETURN_NOTIMPLEMENTED;
    }
    for (int i = 0; i < CS_SLOTS; i++) {
        PyObject *v = CS_SLOT(st, i), *mine = CS_SLOT(into, i), *made = NULL;
        int done = 0;
        switch (CS_KINDS[i]) {
        case CS_SHARE: made = Py_NewRef(v); break;
        case CS_BUDGET: made = rt_full_budget(); break;
        case CS_LIST: case CS_LIST_OR_NONE:
            if (v == Py_None) { made = Py_NewRef(v); break; }
            if (PyList_CheckExact(v) && rt_own_part(mine, v, &PyList_Type)) done = rt_assign_list(mine, v) < 0 ? -1 : 1;
            else made = rt_copy_list(v);
            break;
        case CS_MAP0: case CS_MAP2: case CS_MAP3: {
            int inner = CS_KINDS[i] == CS_MAP0 ? 0 : CS_KINDS[i] == CS_MAP2 ? 2 : 3;
            if (PyDict_CheckExact(v) && rt_own_part(mine, v, &PyDict_Type)) done = rt_assign_map(mine, v, inner);
            if (!done) made = rt_copy_map(v, inner);
            break;
        }
        case CS_FRAMES:
            if (PyList_CheckExact(v) && rt_own_part(mine, v, &PyList_Type)) done = rt_assign_frames(mine, v);
            if (!done) made = rt_copy_frames(v);
            break;
        case CS_PENDING:
            if (v == Py_None) { made = Py_NewRef(v); break; }
            if (Py_IS_TYPE(mine, (PyTypeObject *)PENDING) && Py_REFCNT(mine) == 1
                && !(((PyTypeObject *)PENDING)->tp_weaklistoffset > 0
                     && *(PyObject **)((char *)mine + ((PyTypeObject *)PENDING)->tp_weaklistoffset))) {
                made = Py_NewRef(mine);  /* the target's own decision, its fields set anew */
            } else if (!(made = ((PyTypeObject *)PENDING)->tp_alloc((PyTypeObject *)PENDING, 0))) {
                return NULL;
            }
            for (int k = 0; k < RT_PENDING_FIELDS; k++) {  /* decision, player, options, texts, by_text */
                PyObject *x = k < 5 ? *(PyObject **)((char *)v + PENDING_AT[k]) : Py_None;
                Py_XSETREF(*(PyObject **)((char *)made + PENDING_AT[k]), Py_NewRef(x ? x : Py_None));
            }
            break;
        }
        if (done < 0) return NULL;
        if (done) continue;
        if (!made) {
            if (PyErr_Occurred()) return NULL;
            Py_RETURN_NOTIMPLEMENTED;  /* (a part not of the kind a state holds: Python copies it all) */
        }
        Py_SETREF(CS_SLOT(into, i), made);
    }
    return Py_NewRef(into);
}

/* ------------------------------------------------------------ worlds as arrays
 * A world's graphs (st.world.nodes[g], st.world.adjacent[g]: lists and dicts that never change once made) as
 * arrays of key indexes, made once per world object and graph: a loop over `nodes(g)` or `neighbours(g, x)`
 * then reads no dict and no list.  The neighbours are laid out for every key index i of the graph's node table
 * (and for none, at i == the table's size) as the Python back end finds them, `adjacent[g].get(key i, [])`:
 * adj[off[i] .. off[i + 1]).  Where a graph cannot be laid out so (a list that is not a list of the table's keys,
 * too many worlds or indexes), the generated code reads the world's lists, as before.
 * Safe by construction, whatever runs while a loop holds its pointer (its body may call Python, another thread
 * may run a state of another world of this module): an entry holds a strong reference to its world, so no other
 * world can take its address, and once made it is never changed or freed while the module lives.  Bounded: at
 * most RT_WORLDS worlds (one per player count and settings) and RT_WORLD_IDS_MAX indexes in all. */
typedef struct {
    int made, ok;
    Py_ssize_t nn, nk;  /* nodes in play; keys of the node table */
    int64_t *nodes;
    Py_ssize_t *off;    /* nk + 2 */
    int64_t *adj;
} WorldGraph;
typedef struct { PyObject *world; WorldGraph g[RT_GRAPHS]; } WorldArrays;
#define RT_WORLDS 64
#define RT_WORLD_IDS_MAX 4000000
static WorldArrays WORLDS[RT_WORLDS];
static int NWORLDS, WORLD_LAST;
static Py_ssize_t WORLD_IDS_HELD;

/* The key indexes of a list of keys of a table (a new array; NULL with no error if they are not all keys). */
static int64_t *rt_key_ids(PyObject *list, int table) {
    Py_ssize_t size = PyList_GET_SIZE(list);
    int64_t *ids = PyMem_Malloc(sizeof(int64_t) * (size_t)(size ? size : 1));
    if (!ids) { PyErr_Clear(); return NULL; }
    for (Py_ssize_t i = 0; i < size; i++) {
        if (rt_key_of(table, PyList_GET_ITEM(list, i), &ids[i]) < 0 || ids[i] == RT_NONE) {
            PyErr_Clear(); PyMem_Free(ids); return NULL;
        }
    }
    return ids;
}

/* Lay out graph `name` of a world (g->ok stays 0 where it cannot be). */
static void rt_world_layout(PyObject *w, WorldGraph *g, PyObject *name, int table) {
    PyObject *keys = PyTuple_GET_ITEM(KEYS, table);
    Py_ssize_t nk = PyTuple_GET_SIZE(keys);
    PyObject *nodes_map = PyObject_GetAttr(w, S_nodes), *adj_map = PyObject_GetAttr(w, S_adjacent);
    PyObject *nodes = nodes_map && PyDict_CheckExact(nodes_map) ? PyDict_GetItemWithError(nodes_map, name) : NULL;
    PyObject *adj = adj_map && PyDict_CheckExact(adj_map) ? PyDict_GetItemWithError(adj_map, name) : NULL;
    int64_t *node_ids = NULL, *ids = NULL;
    Py_ssize_t *off = NULL;
    if (!nodes || !adj || !PyList_CheckExact(nodes) || !PyDict_CheckExact(adj)) goto out;
    Py_ssize_t nn = PyList_GET_SIZE(nodes);
    /* (every neighbour list is counted before anything is made: the sizes are bounded first) */
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i <= nk; i++) {
        PyObject *l = PyDict_GetItemWithError(adj, i < nk ? PyTuple_GET_ITEM(keys, i) : Py_None);
        if (!l) { if (PyErr_Occurred()) goto out; continue; }
        if (!PyList_CheckExact(l)) goto out;
        total += PyList_GET_SIZE(l);
        if (total > RT_WORLD_IDS_MAX) goto out;
    }
    if (nn + total + nk > RT_WORLD_IDS_MAX - WORLD_IDS_HELD) goto out;
    off = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(nk + 2));
    ids = PyMem_Malloc(sizeof(int64_t) * (size_t)(total ? total : 1));
    node_ids = rt_key_ids(nodes, table);
    if (!off || !ids || !node_ids) goto out;
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i <= nk; i++) {
        off[i] = at;
        PyObject *l = PyDict_GetItemWithError(adj, i < nk ? PyTuple_GET_ITEM(keys, i) : Py_None);
        if (!l) { if (PyErr_Occurred()) goto out; continue; }
        if (!PyList_CheckExact(l) || at + PyList_GET_SIZE(l) > total) goto out;  /* (as counted: no code ran) */
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(l); j++) {
            if (rt_key_of(table, PyList_GET_ITEM(l, j), &ids[at]) < 0 || ids[at] == RT_NONE) goto out;
            at++;
        }
    }
    off[nk + 1] = at;
    g->nn = nn; g->nk = nk; g->nodes = node_ids; g->off = off; g->adj = ids; g->ok = 1;
    WORLD_IDS_HELD += nn + at + nk;
    node_ids = NULL; off = NULL; ids = NULL;
out:
    PyErr_Clear();
    PyMem_Free(node_ids); PyMem_Free(off); PyMem_Free(ids);
    Py_XDECREF(nodes_map); Py_XDECREF(adj_map);
    g->made = 1;
}

static int rt_world_graph_slow(R *r, int g, PyObject *name, int table, const WorldGraph **out) {
    *out = NULL;
    PyObject *w = rt_attr(r->st, CSI_world, S_world);
    if (!w) return -1;
    Py_DECREF(w);  /* the state holds it while the call runs */
    int k = WORLD_LAST;
    if (k >= NWORLDS || WORLDS[k].world != w) {
        for (k = 0; k < NWORLDS && WORLDS[k].world != w; k++) {}
        if (k == NWORLDS) {
            if (NWORLDS == RT_WORLDS) return 0;
            WORLDS[k].world = Py_NewRef(w);
            NWORLDS++;
        }
        WORLD_LAST = k;
    }
    WorldGraph *wg = &WORLDS[k].g[g];
    if (!wg->made) rt_world_layout(w, wg, name, table);
    if (wg->ok) *out = wg;
    return 0;
}

/* The arrays of graph g (its name, its node table) of the state's world: -1 with an error set if the state has
 * no world; else 0 and *out the arrays, or NULL where the world's lists are to be read.  At once where the state
 * is laid out as expected and its world is the one last seen, its graph made. */
RT_HOT int rt_world_graph(R *r, int g, PyObject *name, int table, const WorldGraph **out) {
    if (RT_IS_CS(Py_TYPE(r->st)) && WORLD_LAST < NWORLDS) {
        WorldArrays *wa = &WORLDS[WORLD_LAST];
        if (CS_SLOT(r->st, CSI_world) == wa->world && wa->world && wa->g[g].made) {
            *out = wa->g[g].ok ? &wa->g[g] : NULL;
            return 0;
        }
    }
    return rt_world_graph_slow(r, g, name, table, out);
}

/* ------------------------------------------------------------------ the State's methods in C
 * A game loop calls state.is_terminal(), state.num_legal_actions() and state.apply_index(i) at every action.  A
 * state whose variant runs wholly in C is of this module's subclass of State (CS_SUB, made by runtime.native_class: no
 * slot of its own, the same layout), on which these methods are C functions: method descriptors, so a call runs
 * no Python frame.  Each does what the Python method does where that is plain (the same reads; apply_index the
 * same advance, of the program game.native_runners[variant] holds) and otherwise calls the Python method itself
 * (SM_PY), the reference: the same answers, errors and refusals. */
enum { SM_APPLY_INDEX, SM_IS_TERMINAL, SM_NUM_LEGAL_ACTIONS, SM_IS_CHANCE_NODE, SM_RAN, SM_FAILED, SM_CURRENT_PLAYER,
       SM_TERMINAL_PLAYER, SM_RESTARTED, SM_CLONE, SM_N };
static PyObject *SM_PY[SM_N];  /* State's own Python functions (and its current_player property, TERMINAL_PLAYER),
                                  by the numbers above (owned) */
static PyObject *S_native_runners, *S_chance;

/* The Python method k of State called as st.<method>(*args, **kwargs) (a vectorcall's arguments). */
static PyObject *sm_python(int k, PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *small[8], **argv = total < 8 ? small : PyMem_Malloc(sizeof(PyObject *) * (size_t)(total + 1));
    if (!argv) return PyErr_NoMemory();
    argv[0] = st;
    for (Py_ssize_t i = 0; i < total; i++) argv[i + 1] = args[i];
    PyObject *out = PyObject_Vectorcall(SM_PY[k], argv, (size_t)(nargs + 1), kwnames);
    if (argv != small) PyMem_Free(argv);
    return out;
}

#if PY_VERSION_HEX < 0x030C0000
/* The program apply_index last ran: right while that game lives (a weak reference: a game freed is never taken
 * for another made at its address) and its native_runners dict is unchanged since (its version tag: any change,
 * as a benchmark's swapping the runner, is seen).  Owned references. */
static struct { PyObject *game_ref, *variant, *runners, *program; uint64_t tag; } SM_LAST;
#endif

/* The program that game.native_runners[variant] holds for st (borrowed), where it is this module's (its advance
 * and clone_state this module's): NULL (no error set) where it is not, or reading it fails (the Python method then
 * decides as it does). */
static PyObject *sm_program_found(PyObject *game, PyObject *variant) {
    PyObject *runners = PyObject_GetAttr(game, S_native_runners), *program = NULL;
    PyObject *runner = runners && PyDict_CheckExact(runners) ? PyDict_GetItemWithError(runners, variant) : NULL;
    if (runner && PyTuple_CheckExact(runner) && PyTuple_GET_SIZE(runner) >= 3
        && Py_TYPE(PyTuple_GET_ITEM(runner, 1)) == &ProgramType && PyCFunction_Check(PyTuple_GET_ITEM(runner, 2))
        && PyCFunction_GET_FUNCTION(PyTuple_GET_ITEM(runner, 2)) == (PyCFunction)(void (*)(void))rt_advance_py
        && PyTuple_GET_SIZE(runner) >= 4 && PyCFunction_Check(PyTuple_GET_ITEM(runner, 3))
        && PyCFunction_GET_FUNCTION(PyTuple_GET_ITEM(runner, 3)) == (PyCFunction)(void (*)(void))rt_clone_state_py) {
        program = PyTuple_GET_ITEM(runner, 1);
#if PY_VERSION_HEX < 0x030C0000
        PyObject *ref = PyWeakref_NewRef(game, NULL);
        if (ref) {  /* (all set before any old one is let go of: freeing may run code, another thread's too) */
            PyObject *old[4] = {SM_LAST.game_ref, SM_LAST.variant, SM_LAST.runners, SM_LAST.program};
            SM_LAST.game_ref = ref;
            SM_LAST.variant = Py_NewRef(variant);
            SM_LAST.runners = Py_NewRef(runners);
            SM_LAST.program = Py_NewRef(program);  /* (the dict holds it too: program stays valid) */
            SM_LAST.tag = RT_DICT_TAG(runners);
            for (int k = 0; k < 4; k++) Py_XDECREF(old[k]);
        }
#endif
    }
    Py_XDECREF(runners);
    PyErr_Clear();
    return program;
}

RT_HOT PyObject *sm_program(PyObject *st) {
    PyObject *game = CS_SLOT(st, CSI_game), *variant = CS_SLOT(st, CSI_variant);
    if (!game || !variant) return NULL;
#if PY_VERSION_HEX < 0x030C0000
    if (SM_LAST.variant == variant && SM_LAST.game_ref && PyWeakref_GET_OBJECT(SM_LAST.game_ref) == game
        && RT_DICT_TAG(SM_LAST.runners) == SM_LAST.tag)
        return SM_LAST.program;
#endif
    return sm_program_found(game, variant);
}

/* st.apply_index(index): the advance State.apply_index calls (rt_advance_py), and what it does with its answer. */
static PyObject *sm_apply_index(PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *program;
    if (nargs != 1 || kwnames || Py_TYPE(st) != CS_SUB || !PyLong_CheckExact(args[0]) || !(program = sm_program(st)))
        return sm_python(SM_APPLY_INDEX, st, args, nargs, kwnames);
    Py_INCREF(program);  /* (held while the code runs: it may change the runners) */
    PyObject *a[3] = {st, program, args[0]};
    PyObject *made = rt_advance_py(NULL, a, 3);
    Py_DECREF(program);
    if (made == Py_True) { Py_DECREF(made); Py_RETURN_NONE; }  /* the usual answer first */
    if (!made) {  /* raised as State._failed_in_c raises it (an error it handles: its context, as in Python) */
        if (!PyErr_ExceptionMatches(PyExc_Exception)) return NULL;
        PyObject *type, *err, *tb;
        PyErr_Fetch(&type, &err, &tb);
        PyErr_NormalizeException(&type, &err, &tb);
        if (tb && err) PyException_SetTraceback(err, tb);
        Py_XDECREF(type); Py_XDECREF(tb);
        if (!err) return NULL;
        PyObject *outer = PyErr_GetHandledException();
        PyErr_SetHandledException(err);
        PyObject *two[2] = {st, err};
        PyObject *out = PyObject_Vectorcall(SM_PY[SM_FAILED], two, 2, NULL);
        PyErr_SetHandledException(outer);
        Py_XDECREF(outer);
        Py_DECREF(err);
        return out;
    }
    if (made == Py_NotImplemented) {  /* the state unchanged: for Python to take, as it takes it */
        Py_DECREF(made);
        return sm_python(SM_APPLY_INDEX, st, args, nargs, kwnames);
    }
    PyObject *two[2] = {st, made};
    PyObject *out = PyObject_Vectorcall(SM_PY[SM_RAN], two, 2, NULL);
    Py_DECREF(made);
    if (!out) return NULL;
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* st.is_terminal(): whether no decision is pending. */
static PyObject *sm_is_terminal(PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *p;
    if (nargs || kwnames || Py_TYPE(st) != CS_SUB || !(p = CS_SLOT(st, CSI_pending)))
        return sm_python(SM_IS_TERMINAL, st, args, nargs, kwnames);
    return Py_NewRef(p == Py_None ? Py_True : Py_False);
}

/* st.num_legal_actions(): how many options the pending decision has (0 at the end), where they are listed. */
static PyObject *sm_num_legal_actions(PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *p;
    if (nargs || kwnames || Py_TYPE(st) != CS_SUB || !(p = CS_SLOT(st, CSI_pending)))
        return sm_python(SM_NUM_LEGAL_ACTIONS, st, args, nargs, kwnames);
    if (p == Py_None) return PyLong_FromLong(0);
    PyObject *options = PENDING_FAST && Py_TYPE(p) == (PyTypeObject *)PENDING ? *(PyObject **)((char *)p + PENDING_AT[2]) : NULL;
    if (options && Py_TYPE(options) == &OptionsType) return PyLong_FromSsize_t(((Options *)options)->n);
    if (options && PyList_CheckExact(options)) return PyLong_FromSsize_t(PyList_GET_SIZE(options));
    return sm_python(SM_NUM_LEGAL_ACTIONS, st, args, nargs, kwnames);  /* (unlisted options: a lazy state) */
}

/* st.is_chance_node(): whether the pending decision is a chance event (its decision's `chance`). */
static PyObject *sm_is_chance_node(PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *p;
    if (nargs || kwnames || Py_TYPE(st) != CS_SUB || !(p = CS_SLOT(st, CSI_pending)))
        return sm_python(SM_IS_CHANCE_NODE, st, args, nargs, kwnames);
    if (p == Py_None) Py_RETURN_FALSE;
    PyObject *decision = PENDING_FAST && Py_TYPE(p) == (PyTypeObject *)PENDING ? *(PyObject **)((char *)p + PENDING_AT[0]) : NULL;
    if (!decision) return sm_python(SM_IS_CHANCE_NODE, st, args, nargs, kwnames);
    return PyObject_GetAttr(decision, S_chance);
}

/* st.clone(into=None): the copy clone_state makes (State.clone's), into a spare of this class if given. */
static PyObject *sm_clone(PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *into = nargs == 1 ? args[0] : Py_None;
    if (nargs > 1 || kwnames || Py_TYPE(st) != CS_SUB || (into != Py_None && Py_TYPE(into) != CS_SUB) || !sm_program(st))
        return sm_python(SM_CLONE, st, args, nargs, kwnames);
    PyObject *a[2] = {st, into};
    PyObject *made = rt_clone_state_py(NULL, a, 2);
    if (made != Py_NotImplemented) return made;
    Py_DECREF(made);
    return sm_python(SM_CLONE, st, args, nargs, kwnames);  /* (a copy for Python to make) */
}

/* st._restarted(rng): a new State of st's class holding every part of st (shared, as State._restarted shares them)
 * but the generator rng (Game.new_state's start of a new state). */
static PyObject *sm_restarted(PyObject *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    if (nargs != 1 || kwnames || Py_TYPE(st) != CS_SUB || !PyLong_CheckExact(args[0]))
        return sm_python(SM_RESTARTED, st, args, nargs, kwnames);
    for (int i = 0; i < CS_SLOTS; i++)
        if (!CS_SLOT(st, i)) return sm_python(SM_RESTARTED, st, args, nargs, kwnames);
    PyObject *made = CS_SUB->tp_alloc(CS_SUB, 0);
    if (!made) return NULL;
    for (int i = 0; i < CS_SLOTS; i++) CS_SLOT(made, i) = Py_NewRef(i == CSI_rng ? args[0] : CS_SLOT(st, i));
    return made;
}

/* st.current_player: the seat to move (the pending decision's player), TERMINAL_PLAYER at the end; its setting
 * and deleting, and any state not plain, as the Python property does them. */
static PyObject *sm_current_player(PyObject *st, void *closure) {
    (void)closure;
    PyObject *p, *player;
    if (Py_TYPE(st) == CS_SUB && (p = CS_SLOT(st, CSI_pending))) {
        if (p == Py_None) return Py_NewRef(SM_PY[SM_TERMINAL_PLAYER]);
        if (PENDING_FAST && Py_TYPE(p) == (PyTypeObject *)PENDING && (player = *(PyObject **)((char *)p + PENDING_AT[1])))
            return Py_NewRef(player);
    }
    PyObject *prop = SM_PY[SM_CURRENT_PLAYER];
    return Py_TYPE(prop)->tp_descr_get(prop, st, (PyObject *)Py_TYPE(st));
}

static int sm_set_current_player(PyObject *st, PyObject *v, void *closure) {
    (void)closure;
    PyObject *prop = SM_PY[SM_CURRENT_PLAYER];
    return Py_TYPE(prop)->tp_descr_set(prop, st, v);
}

static PyGetSetDef SM_GETSET = {"current_player", sm_current_player, sm_set_current_player,
                                "The seat to move, CHANCE_PLAYER or TERMINAL_PLAYER (State.current_player, in C).", NULL};

#define SM_FLAGS (METH_FASTCALL | METH_KEYWORDS)
static PyMethodDef SM_METHODS[] = {
    {"apply_index", (PyCFunction)(void (*)(void))sm_apply_index, SM_FLAGS,
     "Apply the legal action with this index in legal_actions() (State.apply_index, in C)."},
    {"is_terminal", (PyCFunction)(void (*)(void))sm_is_terminal, SM_FLAGS,
     "Whether the game has ended (State.is_terminal, in C)."},
    {"num_legal_actions", (PyCFunction)(void (*)(void))sm_num_legal_actions, SM_FLAGS,
     "How many legal actions there are (State.num_legal_actions, in C)."},
    {"is_chance_node", (PyCFunction)(void (*)(void))sm_is_chance_node, SM_FLAGS,
     "Whether the game waits for a chance outcome (State.is_chance_node, in C)."},
    {"clone", (PyCFunction)(void (*)(void))sm_clone, SM_FLAGS,
     "An independent copy, made in `into` (a state no longer needed) if given (State.clone, in C)."},
    {"_restarted", (PyCFunction)(void (*)(void))sm_restarted, SM_FLAGS,
     "This position as the start of a new state of another generator (State._restarted, in C)."},
    {NULL, NULL, 0, NULL}
};

/* state_class(cls, functions): make cls, a subclass of State that adds no slot (made by runtime.native_class), this
 * module's (CS_SUB): its methods above set on it; functions are State's own (apply_index, is_terminal,
 * num_legal_actions, is_chance_node, _ran, _failed_in_c, the current_player property), TERMINAL_PLAYER,
 * State._restarted and State.clone.  The class the module has (one per module: a class
 * given later is not taken), or None where the State class or cls is not laid out as expected. */
static PyObject *rt_state_class_py(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cls, *fns;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &cls, &PyTuple_Type, &fns)) return NULL;
    PyTypeObject *prop = PyTuple_GET_SIZE(fns) == SM_N ? Py_TYPE(PyTuple_GET_ITEM(fns, SM_CURRENT_PLAYER)) : NULL;
    if (!prop || !prop->tp_descr_get || !prop->tp_descr_set) {
        PyErr_SetString(PyExc_TypeError, "state_class(cls, functions)");
        return NULL;
    }
    if (CS_SUB) return Py_NewRef((PyObject *)CS_SUB);
    PyTypeObject *t = (PyTypeObject *)cls, *base = t->tp_base;
    int members = 0;
    for (PyMemberDef *m = t->tp_members; m && m->name; m++) members++;
    if (!base || !rt_state_layout(base) || base != CS_TYPE || members || t->tp_basicsize != base->tp_basicsize
        || t->tp_itemsize != base->tp_itemsize || t->tp_dictoffset || t->tp_weaklistoffset != base->tp_weaklistoffset
        || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE))
        Py_RETURN_NONE;
    if ((!S_native_runners && !(S_native_runners = PyUnicode_InternFromString("native_runners")))
        || (!S_chance && !(S_chance = PyUnicode_InternFromString("chance")))) return NULL;
    /* (the functions first: a method, once set, may be called) */
    for (int k = 0; k < SM_N; k++) Py_XSETREF(SM_PY[k], Py_NewRef(PyTuple_GET_ITEM(fns, k)));
    for (PyMethodDef *m = SM_METHODS; m->ml_name; m++) {
        PyObject *d = PyDescr_NewMethod(t, m);
        int bad = !d || PyObject_SetAttrString(cls, m->ml_name, d) < 0;
        Py_XDECREF(d);
        if (bad) return NULL;
    }
    PyObject *d = PyDescr_NewGetSet(t, &SM_GETSET);
    int bad = !d || PyObject_SetAttrString(cls, SM_GETSET.name, d) < 0;
    Py_XDECREF(d);
    if (bad) return NULL;
    CS_SUB = (PyTypeObject *)Py_NewRef(cls);
    return Py_NewRef(cls);
}
