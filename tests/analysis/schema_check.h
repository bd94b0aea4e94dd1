/*
 * tests/analysis/schema_check.h - a small JSON Schema validator for the
 * tests (jansson has none): the keywords tests/analysis/
 * insights.schema.json uses, and no more: $ref to "#/$defs/NAME", type
 * (a name or a list; "integer" is a number without a fraction), enum,
 * required, properties, additionalProperties (false or a schema), items,
 * minItems, maxItems, minLength, minimum, maximum.  Any other keyword
 * fails the check, so the schema cannot grow past what is checked.
 */
#ifndef TOKIO_TESTS_SCHEMA_CHECK_H
#define TOKIO_TESTS_SCHEMA_CHECK_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int schema_check_at(const json_t *root, const json_t *schema,
                           const json_t *v, const char *where, char *err,
                           size_t size);

static int
schema_type_is(const char *type, const json_t *v)
{
    if (strcmp(type, "object") == 0) return json_is_object(v);
    if (strcmp(type, "array") == 0) return json_is_array(v);
    if (strcmp(type, "string") == 0) return json_is_string(v);
    if (strcmp(type, "number") == 0) return json_is_number(v);
    if (strcmp(type, "boolean") == 0) return json_is_boolean(v);
    if (strcmp(type, "null") == 0) return json_is_null(v);
    if (strcmp(type, "integer") == 0)
        return json_is_integer(v) ||
               (json_is_real(v) && json_real_value(v) ==
                                       floor(json_real_value(v)));
    return 0;
}

static int
schema_fail(char *err, size_t size, const char *where, const char *what)
{
    snprintf(err, size, "%s: %s", where, what);
    return -1;
}

static int
schema_check_at(const json_t *root, const json_t *schema, const json_t *v,
                const char *where, char *err, size_t size)
{
    const char *key;
    json_t *rule;
    char at[512];

    json_object_foreach((json_t *)schema, key, rule) {
        if (strcmp(key, "$ref") == 0) {
            const char *ref = json_string_value(rule);
            if (ref == NULL || strncmp(ref, "#/$defs/", 8) != 0)
                return schema_fail(err, size, where, "unsupported $ref");
            const json_t *def = json_object_get(
                json_object_get(root, "$defs"), ref + 8);
            if (def == NULL)
                return schema_fail(err, size, where, "dangling $ref");
            if (schema_check_at(root, def, v, where, err, size) < 0)
                return -1;
        } else if (strcmp(key, "type") == 0) {
            int ok = 0;
            if (json_is_string(rule))
                ok = schema_type_is(json_string_value(rule), v);
            for (size_t i = 0; json_is_array(rule) &&
                               i < json_array_size(rule); i++)
                ok |= schema_type_is(json_string_value(
                                         json_array_get(rule, i)), v);
            if (!ok)
                return schema_fail(err, size, where, "wrong type");
        } else if (strcmp(key, "enum") == 0) {
            int ok = 0;
            for (size_t i = 0; i < json_array_size(rule); i++)
                ok |= json_equal(json_array_get(rule, i), (json_t *)v);
            if (!ok)
                return schema_fail(err, size, where, "not in the enum");
        } else if (strcmp(key, "required") == 0) {
            for (size_t i = 0; json_is_object(v) &&
                               i < json_array_size(rule); i++)
                if (json_object_get(v, json_string_value(
                                           json_array_get(rule, i))) == NULL) {
                    snprintf(at, sizeof(at), "%s: '%s' is missing", where,
                             json_string_value(json_array_get(rule, i)));
                    return schema_fail(err, size, at, "required");
                }
        } else if (strcmp(key, "properties") == 0 ||
                   strcmp(key, "additionalProperties") == 0) {
            const json_t *props = json_object_get(schema, "properties");
            const json_t *extra = json_object_get(schema,
                                                  "additionalProperties");
            const char *k;
            json_t *x;
            if (strcmp(key, "additionalProperties") == 0 && props != NULL)
                continue;       /* done with properties */
            json_object_foreach((json_t *)(json_is_object(v) ? v : NULL), k,
                                x) {
                const json_t *sub = json_object_get(props, k);
                snprintf(at, sizeof(at), "%s.%s", where, k);
                if (sub == NULL && json_is_false(extra))
                    return schema_fail(err, size, at, "not allowed");
                if (sub == NULL)
                    sub = json_is_object(extra) ? extra : NULL;
                if (sub != NULL &&
                    schema_check_at(root, sub, x, at, err, size) < 0)
                    return -1;
            }
        } else if (strcmp(key, "items") == 0) {
            for (size_t i = 0; json_is_array(v) && i < json_array_size(v);
                 i++) {
                snprintf(at, sizeof(at), "%s[%zu]", where, i);
                if (schema_check_at(root, rule, json_array_get(v, i), at,
                                    err, size) < 0)
                    return -1;
            }
        } else if (strcmp(key, "minItems") == 0) {
            if (json_is_array(v) &&
                (json_int_t)json_array_size(v) < json_integer_value(rule))
                return schema_fail(err, size, where, "too few items");
        } else if (strcmp(key, "maxItems") == 0) {
            if (json_is_array(v) &&
                (json_int_t)json_array_size(v) > json_integer_value(rule))
                return schema_fail(err, size, where, "too many items");
        } else if (strcmp(key, "minLength") == 0) {
            if (json_is_string(v) &&
                (json_int_t)json_string_length(v) < json_integer_value(rule))
                return schema_fail(err, size, where, "too short");
        } else if (strcmp(key, "minimum") == 0) {
            if (json_is_number(v) &&
                json_number_value(v) < json_number_value(rule))
                return schema_fail(err, size, where, "below the minimum");
        } else if (strcmp(key, "maximum") == 0) {
            if (json_is_number(v) &&
                json_number_value(v) > json_number_value(rule))
                return schema_fail(err, size, where, "above the maximum");
        } else if (strcmp(key, "$schema") != 0 && strcmp(key, "$id") != 0 &&
                   strcmp(key, "$defs") != 0 && strcmp(key, "title") != 0 &&
                   strcmp(key, "description") != 0) {
            snprintf(at, sizeof(at), "%s: keyword %s", where, key);
            return schema_fail(err, size, at, "not supported by the check");
        }
    }
    return 0;
}

/* 0 when `v` is valid against `schema`; else -1, with where and why in
 * `err`. */
static int
schema_check(const json_t *schema, const json_t *v, char *err, size_t size)
{
    err[0] = '\0';
    return schema_check_at(schema, schema, v, "$", err, size);
}

#endif
