/*
 * tests/tools/test_topology.c - a job's radius in a Cray network
 * (src/tools/topology.c) against the reference's golden
 * (golden/pytokio/topology/get_job_diameter.4478544.json), then the
 * arithmetic on small tables of our own, the reference's {} cases, bad
 * nodes and out-of-memory failures.
 *
 * Tolerance: job_min_radius and job_max_radius must match exactly;
 * job_avg_radius within a relative 1e-14, because the reference summed
 * the distances in Python set order (hash order: the golden's last digit
 * changes with PYTHONHASHSEED, 4.913247095678401 with seed 0,
 * 4.913247095678399 with seed 1) and we sum in sorted node order.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "tokio/connectors/craysdb.h"
#include "tokio/tools/topology.h"
#include "core/alloc.h"

#define SLURM "pytokio-inputs/sample.slurm"
#define NODEMAP "pytokio-inputs/sample.xtdb2proc.gz"
#define GOLDEN "golden/pytokio/topology/get_job_diameter.4478544.json"
#define AVG_RTOL 1e-14

/* Nodes 1..4 on a line and in a square; 9 holds a text coordinate. */
static const char map_text[] =
    "x_coord=0,y_coord=0,z_coord=0,processor_id=1\n"
    "x_coord=2,y_coord=0,z_coord=0,processor_id=2\n"
    "x_coord=2,y_coord=2,z_coord=0,processor_id=3\n"
    "x_coord=0,y_coord=2,z_coord=0,processor_id=4\n"
    "x_coord=30000,y_coord=0,z_coord=0,processor_id=5\n"
    "x_coord='a',y_coord=0,z_coord=0,processor_id=9\n";

static struct tokio_craysdb *
small_map(void)
{
    struct tokio_craysdb *db = NULL;

    assert_int_equal(tokio_craysdb_open_mem(&db, map_text, strlen(map_text),
                                            "map"), TOKIO_OK);
    return db;
}

static void
assert_rel_close(double got, double want, double rtol)
{
    if (fabs(got - want) > rtol * fabs(want))
        fail_msg("%.17g is not within %g of %.17g", got, rtol, want);
}

/* ---- golden --------------------------------------------------------- */

static void
test_topology_sample_job_matches_golden(void **state)
{
    (void)state;
    char slurm[4096], nodemap[4096];
    TOKIO_TEST_NEED_DATA(s, SLURM);
    snprintf(slurm, sizeof(slurm), "%s", s);
    TOKIO_TEST_NEED_DATA(m, NODEMAP);
    snprintf(nodemap, sizeof(nodemap), "%s", m);
    TOKIO_TEST_NEED_DATA(golden_path, GOLDEN);
    json_t *golden = json_load_file(golden_path, 0, NULL), *ours = NULL;
    struct tokio_job_diameter d;

    assert_non_null(golden);
    assert_int_equal(tokio_topology_get_job_diameter(&d, "4478544", nodemap,
                                                     slurm), TOKIO_OK);
    assert_true(d.n_nodes > 0);
    assert_int_equal(tokio_topology_diameter_to_json(&d, &ours), TOKIO_OK);
    assert_int_equal(json_object_size(ours), 3);
    assert_true(json_real_value(json_object_get(ours, "job_min_radius")) ==
                json_real_value(json_object_get(golden, "job_min_radius")));
    assert_true(json_real_value(json_object_get(ours, "job_max_radius")) ==
                json_real_value(json_object_get(golden, "job_max_radius")));
    /* set order in the reference: see the tolerance note at the top */
    assert_rel_close(json_real_value(json_object_get(ours,
                                                     "job_avg_radius")),
                     json_real_value(json_object_get(golden,
                                                     "job_avg_radius")),
                     AVG_RTOL);
    json_decref(golden);
    json_decref(ours);
}

/* ---- arithmetic on our own tables ----------------------------------- */

static void
test_topology_square_has_radius_sqrt2(void **state)
{
    (void)state;
    static const char *const nodes[] = {
        "nid00001", "nid00002", "nid00003", "nid00004"
    };
    struct tokio_craysdb *map = small_map();
    struct tokio_job_diameter d;

    assert_int_equal(tokio_topology_job_diameter(&d, map, nodes, 4),
                     TOKIO_OK);
    assert_int_equal(d.n_nodes, 4);
    assert_true(d.min_radius == sqrt(2.0));
    assert_true(d.max_radius == sqrt(2.0));
    assert_true(d.avg_radius == sqrt(2.0));
    tokio_craysdb_free(map);
}

static void
test_topology_line_min_max_avg(void **state)
{
    (void)state;
    /* (0,0,0), (2,0,0), (2,2,0): centre (4/3, 2/3, 0) */
    static const char *const nodes[] = { "nid1", "nid2", "nid3" };
    struct tokio_craysdb *map = small_map();
    struct tokio_job_diameter d;
    double c[2] = { 4.0 / 3.0, 2.0 / 3.0 };
    double r1 = sqrt(pow(0 - c[0], 2.0) + pow(0 - c[1], 2.0));
    double r2 = sqrt(pow(2 - c[0], 2.0) + pow(0 - c[1], 2.0));
    double r3 = sqrt(pow(2 - c[0], 2.0) + pow(2 - c[1], 2.0));

    assert_int_equal(tokio_topology_job_diameter(&d, map, nodes, 3),
                     TOKIO_OK);
    assert_true(d.min_radius == r2);
    assert_true(d.max_radius == r3);
    assert_true(d.avg_radius == (r1 + r2 + r3) / 3.0);
    tokio_craysdb_free(map);
}

/* The reference started its running minimum at 10000.0. */
static void
test_topology_min_radius_is_capped_at_10000(void **state)
{
    (void)state;
    static const char *const nodes[] = { "nid1", "nid5" };
    struct tokio_craysdb *map = small_map();
    struct tokio_job_diameter d;

    assert_int_equal(tokio_topology_job_diameter(&d, map, nodes, 2),
                     TOKIO_OK);
    assert_true(d.min_radius == 10000.0);
    assert_true(d.max_radius == 15000.0);
    assert_true(d.avg_radius == 15000.0);
    tokio_craysdb_free(map);
}

/* int(name.lstrip('nid')): extra n/i/d letters and whitespace go too. */
static void
test_topology_node_names_parse_as_reference(void **state)
{
    (void)state;
    static const char *const nodes[] = { "nidd1", "nid 2 ", "nid0_3" };
    struct tokio_craysdb *map = small_map();
    struct tokio_job_diameter d;

    assert_int_equal(tokio_topology_job_diameter(&d, map, nodes, 3),
                     TOKIO_OK);
    assert_int_equal(d.n_nodes, 3);
    tokio_craysdb_free(map);
}

/* ---- the reference's {} cases --------------------------------------- */

static void
test_topology_no_nodes_gives_empty_object(void **state)
{
    (void)state;
    struct tokio_craysdb *map = small_map();
    struct tokio_job_diameter d;
    json_t *json = NULL;

    assert_int_equal(tokio_topology_job_diameter(&d, map, NULL, 0),
                     TOKIO_OK);
    assert_int_equal(d.n_nodes, 0);
    assert_string_equal(d.bad_node, "");
    assert_int_equal(tokio_topology_diameter_to_json(&d, &json), TOKIO_OK);
    assert_int_equal(json_object_size(json), 0);
    json_decref(json);
    tokio_craysdb_free(map);
}

static void
test_topology_non_cray_node_gives_empty_object(void **state)
{
    (void)state;
    /* nid00077 is not in the table: the name check comes first */
    static const char *const nodes[] = { "nid00077", "login1" };
    struct tokio_craysdb *map = small_map();
    struct tokio_job_diameter d;

    assert_int_equal(tokio_topology_job_diameter(&d, map, nodes, 2),
                     TOKIO_OK);
    assert_int_equal(d.n_nodes, 0);
    assert_string_equal(d.bad_node, "login1");
    tokio_craysdb_free(map);
}

/* ---- bad nodes ------------------------------------------------------ */

static void
test_topology_bad_nodes_fail_naming_them(void **state)
{
    (void)state;
    static const struct {
        const char *node;
        int status;
        const char *fragment;
    } cases[] = {
        { "nid00077", TOKIO_ENOTFOUND, "node 'nid00077'" },
        { "nid", TOKIO_EFORMAT, "node 'nid' is not a Cray node number" },
        { "nidx1", TOKIO_EFORMAT, "node 'nidx1'" },
        { "nid99999999999999999999", TOKIO_EFORMAT, "is not a Cray node" },
        { "nid9", TOKIO_EFORMAT, "x_coord is not an integer" },
    };
    struct tokio_craysdb *map = small_map();

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *nodes[] = { "nid1", cases[i].node };
        struct tokio_job_diameter d;

        print_message("node %s\n", cases[i].node);
        assert_int_equal(tokio_topology_job_diameter(&d, map, nodes, 2),
                         cases[i].status);
        assert_contains(tokio_errmsg(), cases[i].fragment);
    }
    tokio_craysdb_free(map);
}

static void
test_topology_missing_inputs_fail(void **state)
{
    (void)state;
    struct tokio_job_diameter d;

    assert_int_equal(tokio_topology_get_job_diameter(&d, NULL, "x", NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_topology_get_job_diameter(&d, NULL,
                                                     "/nonexistent/map",
                                                     "/nonexistent/slurm"),
                     TOKIO_EIO);
    assert_contains(tokio_errmsg(), "/nonexistent/slurm");
}

/* ---- out of memory -------------------------------------------------- */

/*
 * Our part only: the node map, the diameter and its JSON.  The Slurm
 * cache reader (connectors/slurm) is tested by its own OOM loop.
 */
static int
diameter_of_two_nodes(void *ctx)
{
    static const char *const nodes[] = { "nid00002", "nid00001" };
    struct tokio_craysdb *map = NULL;
    struct tokio_job_diameter d;
    json_t *json = NULL;
    int rc = tokio_craysdb_open_mem(&map, map_text, strlen(map_text), "map");

    (void)ctx;
    if (rc >= 0)
        rc = tokio_topology_job_diameter(&d, map, nodes, 2);
    if (rc >= 0)
        rc = tokio_topology_diameter_to_json(&d, &json);
    tokio_craysdb_free(map);
    if (rc >= 0) {
        assert_int_equal(d.n_nodes, 2);
        assert_true(d.max_radius == 1.0);
        assert_int_equal(json_object_size(json), 3);
    } else {
        assert_null(json);
    }
    json_decref(json);
    return rc;
}

static void
test_topology_diameter_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(diameter_of_two_nodes, NULL, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topology_sample_job_matches_golden),
        cmocka_unit_test(test_topology_square_has_radius_sqrt2),
        cmocka_unit_test(test_topology_line_min_max_avg),
        cmocka_unit_test(test_topology_min_radius_is_capped_at_10000),
        cmocka_unit_test(test_topology_node_names_parse_as_reference),
        cmocka_unit_test(test_topology_no_nodes_gives_empty_object),
        cmocka_unit_test(test_topology_non_cray_node_gives_empty_object),
        cmocka_unit_test(test_topology_bad_nodes_fail_naming_them),
        cmocka_unit_test(test_topology_missing_inputs_fail),
        cmocka_unit_test(test_topology_diameter_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
