"""sbperf.json_schema — a small JSON Schema validator (stdlib only) for bench/*.schema.json.

It implements the subset of draft 2020-12 that the project's schemas use: type (one or a
list), enum, const, required, properties, additionalProperties (false or a schema),
pattern, minLength, minimum, maximum, items, allOf, anyOf, oneOf, not, if/then/else.
Annotation keywords ($schema, $id, title, description) are ignored; any other keyword is an
error, so a schema can never rely on a check this validator silently skips.

Usage: python3 -m sbperf.json_schema SCHEMA FILE.jsonl   (validates every line; exit 1 on
       any error)
       or from Python: validate(instance, schema) -> list of error strings
"""

import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment", "examples", "default"}
SUPPORTED = {"type", "enum", "const", "required", "properties", "additionalProperties",
             "pattern", "minLength", "minimum", "maximum", "items", "allOf", "anyOf", "oneOf",
             "not", "if", "then", "else"} | ANNOTATIONS


def is_type(value, name):
    """Returns whether value has the JSON type name (booleans are not numbers)."""
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool) or \
            isinstance(value, float) and value.is_integer()
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise ValueError("unknown type %r in the schema" % name)


def validate(value, schema, path="$"):
    """Returns the list of errors of value against schema (empty: valid)."""
    if schema is True or schema == {}:
        return []
    if schema is False:
        return ["%s: no value is allowed here" % path]
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise ValueError("%s: unsupported schema keywords %s" % (path, sorted(unknown)))
    errors = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(is_type(value, t) for t in types):
            return ["%s: %s is not of type %s" % (path, json.dumps(value), " or ".join(types))]
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %s is not one of %s" % (path, json.dumps(value),
                                                   json.dumps(schema["enum"])))
    if "const" in schema and value != schema["const"]:
        errors.append("%s: %s is not %s" % (path, json.dumps(value), json.dumps(schema["const"])))
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append("%s: %s does not match %s" % (path, json.dumps(value),
                                                         schema["pattern"]))
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append("%s: shorter than %d" % (path, schema["minLength"]))
    if is_type(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %s is below the minimum %s" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %s is above the maximum %s" % (path, value, schema["maximum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: required property %r is missing" % (path, key))
        props = schema.get("properties", {})
        for key, sub in props.items():
            if key in value:
                errors += validate(value[key], sub, "%s.%s" % (path, key))
        extra = schema.get("additionalProperties", True)
        for key in value:
            if key not in props:
                if extra is False:
                    errors.append("%s: property %r is not allowed" % (path, key))
                elif isinstance(extra, dict):
                    errors += validate(value[key], extra, "%s.%s" % (path, key))
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += validate(item, schema["items"], "%s[%d]" % (path, i))
    for sub in schema.get("allOf", []):
        errors += validate(value, sub, path)
    if "anyOf" in schema and not any(not validate(value, s, path) for s in schema["anyOf"]):
        errors.append("%s: matches none of anyOf" % path)
    if "oneOf" in schema:
        n = sum(1 for s in schema["oneOf"] if not validate(value, s, path))
        if n != 1:
            errors.append("%s: matches %d of oneOf, not exactly one" % (path, n))
    if "not" in schema and not validate(value, schema["not"], path):
        errors.append("%s: matches a schema it must not" % path)
    if "if" in schema:
        branch = "then" if not validate(value, schema["if"], path) else "else"
        if branch in schema:
            errors += validate(value, schema[branch], path)
    return errors


def main(argv):
    """Validates each line of a JSON Lines file; returns 1 when any line is invalid."""
    if len(argv) != 2:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        schema = json.load(f)
    bad = n = 0
    with open(argv[1], encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            for err in validate(json.loads(line), schema):
                print("%s:%d: %s" % (argv[1], n, err))
                bad += 1
    print("json_schema: %s: %d lines, %d errors" % (argv[1], n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
