#!/usr/bin/env python3
"""Read dpclust's published topics without dpclust: one JSON object per record on stdout.

Reads each topic from the beginning to its end (or on, with --follow) as a ``read_committed``
consumer, so records of aborted or still open transactions are never seen. Every record value is
decoded by its first byte (docs/wire-format.md):

* ``C3 01`` + 8-byte little-endian fingerprint + body: Avro single-object encoding. The
  fingerprint is the CRC-64-AVRO of the writer schema's Parsing Canonical Form; both are
  computed here from the ``*.avsc`` files (the Avro specification; python3-avro has no
  fingerprint function and its canonical form keeps ``logicalType``), and a value whose
  fingerprint matches no known schema is refused. The body is decoded with python3-avro and
  rendered like the JSON format.
* ``{``: the JSON format, one JSON object per record.

Output: the record as JSON, with the schema's field names, exactly as ``dpclust consume`` prints
it: timestamps as ISO-8601 UTC strings, bytes as base64, enums by symbol, ``[null, X]`` unions as
null or the bare value, non-finite doubles as "NaN", "Infinity", "-Infinity".

Needs only Debian's python3-confluent-kafka and python3-avro. Library use::

    from dpclust_consume import consume
    for topic, release in consume("broker:9092", ["dpclust.centroids.v1"]):
        ...

Exit codes: 0 all records decoded; 1 some record could not be decoded (reported on stderr and
skipped); 2 bad arguments, unknown topic or unreadable schema files.
"""

import argparse
import base64
import datetime
import io
import json
import math
import pathlib
import sys
import time
import uuid

import avro.errors
import avro.io
import avro.schema
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition, OFFSET_BEGINNING

#: Default topics by kind (kafka.topics.* in docs/configuration.md).
DEFAULT_TOPICS = {
    "releases": "dpclust.centroids.v1",
    "sketches": "dpclust.sketches.v1",
    "cells": "dpclust.cells.v1",
    "running": "dpclust.running.v1",
    "budget": "dpclust.budget.v1",
    "dead_letters": "dpclust.dlq.v1",
}

SINGLE_OBJECT_MARKER = b"\xc3\x01"
HEADER_LENGTH = 10

_HERE = pathlib.Path(__file__).resolve().parent
#: The repository's schemas: the current ones and every version dpclust has published.
DEFAULT_SCHEMA_DIRS = [
    _HERE.parents[1] / "avro",
    _HERE.parents[1] / "src" / "main" / "resources" / "avro-history",
]

# ---------------------------------------------------------------------------------------------
# CRC-64-AVRO and the Parsing Canonical Form (Avro specification, "Schema Fingerprints" and
# "Parsing Canonical Form for Schemas").

CRC64_EMPTY = 0xC15D213AA4D7A795


def _crc64_table():
    table = []
    for i in range(256):
        fp = i
        for _ in range(8):
            fp = (fp >> 1) ^ (CRC64_EMPTY & -(fp & 1))
        table.append(fp)
    return table


_CRC64_TABLE = _crc64_table()


def crc64_avro(data):
    """The Rabin fingerprint CRC-64-AVRO of ``data`` (bytes), as an unsigned 64-bit int."""
    fp = CRC64_EMPTY
    for b in data:
        fp = (fp >> 8) ^ _CRC64_TABLE[(fp ^ b) & 0xFF]
    return fp


PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}


def _fullname(name, namespace):
    if "." in name or not namespace:
        return name
    return namespace + "." + name


def _q(s):
    return json.dumps(s)


def canonical_form(schema):
    """The Parsing Canonical Form of a schema given as parsed JSON (dict, list or str).

    Keeps only type, name, fields, symbols, items, values and size ([STRIP]: doc, aliases,
    defaults, order, logicalType and other attributes go), in that order ([ORDER]); names become
    full names and namespaces go ([FULLNAMES]); a primitive is its bare name ([PRIMITIVES]); a
    named type already written is referred to by its full name; no whitespace.
    """
    return _pcf(schema, None, set())


def _pcf(s, ns, seen):
    if isinstance(s, str):
        return _q(s if s in PRIMITIVES else _fullname(s, ns))
    if isinstance(s, list):
        return "[" + ",".join(_pcf(x, ns, seen) for x in s) + "]"
    t = s["type"]
    if not isinstance(t, str):
        return _pcf(t, ns, seen)
    if t in PRIMITIVES:
        return _q(t)
    if t in ("record", "error", "enum", "fixed"):
        name = s["name"]
        full = _fullname(name, s.get("namespace", ns) if "." not in name else None)
        if full in seen:
            return _q(full)
        seen.add(full)
        inner = full.rsplit(".", 1)[0] if "." in full else None
        if t == "enum":
            symbols = ",".join(_q(x) for x in s["symbols"])
            return '{"name":%s,"type":"enum","symbols":[%s]}' % (_q(full), symbols)
        if t == "fixed":
            return '{"name":%s,"type":"fixed","size":%d}' % (_q(full), int(s["size"]))
        fields = ",".join(
            '{"name":%s,"type":%s}' % (_q(f["name"]), _pcf(f["type"], inner, seen))
            for f in s["fields"]
        )
        return '{"name":%s,"type":%s,"fields":[%s]}' % (_q(full), _q(t), fields)
    if t == "array":
        return '{"type":"array","items":%s}' % _pcf(s["items"], ns, seen)
    if t == "map":
        return '{"type":"map","values":%s}' % _pcf(s["values"], ns, seen)
    return _q(_fullname(t, ns))


def fingerprint(schema):
    """CRC-64-AVRO of the schema's Parsing Canonical Form (unsigned)."""
    return crc64_avro(canonical_form(schema).encode("utf-8"))


# ---------------------------------------------------------------------------------------------
# Schemas and decoding.


class SchemaStore:
    """Every ``*.avsc`` under the given directories, by fingerprint."""

    def __init__(self, dirs=None):
        self.by_fingerprint = {}
        self.files = []
        for d in dirs or DEFAULT_SCHEMA_DIRS:
            for f in sorted(pathlib.Path(d).glob("*.avsc")):
                text = f.read_text(encoding="utf-8")
                parsed = json.loads(text)
                fp = fingerprint(parsed)
                self.files.append((f, parsed, fp))
                if fp not in self.by_fingerprint:
                    self.by_fingerprint[fp] = (avro.schema.parse(text), parsed)
        if not self.files:
            raise ValueError("no *.avsc files in %s" % ", ".join(str(d) for d in dirs or DEFAULT_SCHEMA_DIRS))


class DecodeError(Exception):
    pass


def decode_value(value, store):
    """The JSON-ready dict of one record value in either wire format."""
    if value is None or len(value) == 0:
        raise DecodeError("empty value")
    if value[:1] == b"{":
        try:
            obj = json.loads(value.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise DecodeError("not JSON: %s" % e) from e
        if not isinstance(obj, dict):
            raise DecodeError("not a JSON object")
        return obj
    if value[:2] != SINGLE_OBJECT_MARKER or len(value) < HEADER_LENGTH:
        raise DecodeError("neither JSON nor Avro single-object encoding (marker C3 01)")
    fp = int.from_bytes(value[2:HEADER_LENGTH], "little")
    known = store.by_fingerprint.get(fp)
    if known is None:
        raise DecodeError("unknown schema fingerprint %016x" % fp)
    schema, _ = known
    body = io.BytesIO(value[HEADER_LENGTH:])
    try:
        datum = avro.io.DatumReader(schema).read(avro.io.BinaryDecoder(body))
    except Exception as e:  # python3-avro raises assorted errors on a truncated body
        raise DecodeError("malformed Avro body: %s" % e) from e
    if body.tell() != len(value) - HEADER_LENGTH:
        raise DecodeError("%d bytes after the Avro body" % (len(value) - HEADER_LENGTH - body.tell()))
    return _render(datum)


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def iso_millis(ms):
    """Epoch milliseconds as Java's Instant.toString(): no fraction when the milliseconds are 0."""
    seconds, millis = divmod(ms, 1000)
    s = (_EPOCH + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")
    return s + (".%03d" % millis if millis else "") + "Z"


def _render(v):
    if isinstance(v, dict):
        items = v.items()
        if not all(isinstance(k, str) for k in v):
            items = ((str(k), x) for k, x in items)
        return {k: _render(x) for k, x in items}
    if isinstance(v, list):
        return [_render(x) for x in v]
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        return iso_millis((v - _EPOCH) // datetime.timedelta(milliseconds=1))
    if isinstance(v, bytes):
        return base64.b64encode(v).decode("ascii")
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return v


# ---------------------------------------------------------------------------------------------
# Kafka.


def _consumer(bootstrap_servers, config):
    conf = {
        "bootstrap.servers": bootstrap_servers,
        "group.id": "dpclust-consume-" + uuid.uuid4().hex,
        "enable.auto.commit": False,
        "enable.partition.eof": True,
        "auto.offset.reset": "earliest",
    }
    conf.update(config or {})
    conf["isolation.level"] = "read_committed"  # never show aborted or open transactions
    return Consumer(conf)


def consume(bootstrap_servers, topics, config=None, follow=False, store=None, errors=None,
            settle_seconds=10.0, with_metadata=False):
    """Yields (topic, record dict) for every committed record of ``topics``, from the beginning.

    Stops at the end of every partition unless ``follow``: the end is taken once each
    partition's position has reached its high watermark (a transaction's commit markers can lag
    its commit by a little, so it waits up to ``settle_seconds`` for them). ``config`` is extra
    librdkafka configuration (security etc.); ``isolation.level`` is always read_committed.
    Records that cannot be decoded are passed to ``errors(message)`` (default: stderr) and
    skipped. With ``with_metadata``, yields (topic, dict with partition, offset, key and value).
    """
    store = store or SchemaStore()
    report = errors or (lambda m: print(m, file=sys.stderr))
    c = _consumer(bootstrap_servers, config)
    try:
        parts = []
        for t in topics:
            md = c.list_topics(t, timeout=30).topics.get(t)
            if md is None or md.error is not None or not md.partitions:
                raise LookupError("topic '%s' does not exist on %s" % (t, bootstrap_servers))
            parts += [TopicPartition(t, p, OFFSET_BEGINNING) for p in sorted(md.partitions)]
        c.assign(parts)
        at_eof = set()
        settle_until = None
        while True:
            msg = c.poll(0.5)
            if msg is None:
                pass
            elif msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    at_eof.add((msg.topic(), msg.partition()))
                else:
                    raise KafkaException(msg.error())
            else:
                at_eof.discard((msg.topic(), msg.partition()))
                try:
                    record = decode_value(msg.value(), store)
                except DecodeError as e:
                    report("skipping undecodable record at %s/%d@%d: %s"
                           % (msg.topic(), msg.partition(), msg.offset(), e))
                    continue
                if with_metadata:
                    key = msg.key()
                    record = {"partition": msg.partition(), "offset": msg.offset(),
                              "key": None if key is None else key.decode("utf-8", "replace"),
                              "value": record}
                yield msg.topic(), record
                continue
            if follow or len(at_eof) < len(parts):
                continue
            # Every partition reported its end (the last stable offset): done once that is also
            # the high watermark, i.e. no transaction's markers are still on their way.
            if settle_until is None:
                settle_until = time.monotonic() + settle_seconds
            positions = c.position([TopicPartition(p.topic, p.partition) for p in parts])
            behind = [p for p in positions
                      if p.offset < c.get_watermark_offsets(p, timeout=10, cached=False)[1]]
            if not behind or time.monotonic() > settle_until:
                return
            for p in behind:
                at_eof.discard((p.topic, p.partition))
    finally:
        c.close()


def _properties(path):
    out = {}
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            k, sep, v = line.partition("=")
            if not sep:
                raise ValueError("%s: expected key=value, got '%s'" % (path, line))
            out[k.strip()] = v.strip()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="dpclust_consume.py",
        description="Print dpclust's published topics as JSON lines (read_committed), in either "
                    "wire format (avro or json).")
    p.add_argument("-b", "--bootstrap-servers", help="Kafka bootstrap servers (required to read)")
    p.add_argument("-t", "--topic", action="append", default=[],
                   help="topic to read (repeatable); default: the topic of --kind")
    p.add_argument("--kind", choices=sorted(DEFAULT_TOPICS), action="append", default=[],
                   help="read the default topic of this kind (repeatable); default: releases")
    p.add_argument("--follow", action="store_true", help="keep following new records")
    p.add_argument("--with-metadata", action="store_true",
                   help="print {topic, partition, offset, key, value} instead of the bare record")
    p.add_argument("--schemas", action="append", type=pathlib.Path,
                   help="directory of *.avsc files (repeatable); default: the repository's avro/ "
                        "and src/main/resources/avro-history/")
    p.add_argument("-X", dest="props", action="append", default=[], metavar="KEY=VALUE",
                   help="librdkafka property, e.g. -X security.protocol=SASL_SSL (repeatable)")
    p.add_argument("-F", dest="props_file", metavar="FILE",
                   help="file of librdkafka properties, one key=value a line")
    p.add_argument("--fingerprints", action="store_true",
                   help="print each schema file's Parsing Canonical Form and fingerprint, and exit")
    a = p.parse_args(argv)
    try:
        store = SchemaStore(a.schemas)
        config = _properties(a.props_file) if a.props_file else {}
        for kv in a.props:
            k, sep, v = kv.partition("=")
            if not sep:
                raise ValueError("-X %s: expected key=value" % kv)
            config[k] = v
    except (OSError, ValueError, avro.errors.AvroException) as e:
        print("dpclust_consume.py: %s" % e, file=sys.stderr)
        return 2
    if a.fingerprints:
        for f, parsed, fp in store.files:
            print(json.dumps({"file": f.name, "name": _fullname(parsed["name"], parsed.get("namespace")),
                              "fingerprint": "%016x" % fp,
                              "canonical_form": canonical_form(parsed)}))
        return 0
    if not a.bootstrap_servers:
        print("dpclust_consume.py: -b/--bootstrap-servers is required", file=sys.stderr)
        return 2
    topics = a.topic + [DEFAULT_TOPICS[k] for k in a.kind] or [DEFAULT_TOPICS["releases"]]
    failed = []

    def error(message):
        failed.append(message)
        print(message, file=sys.stderr)

    try:
        for topic, record in consume(a.bootstrap_servers, topics, config, a.follow, store, error,
                                     with_metadata=a.with_metadata):
            if a.with_metadata:
                record = dict(topic=topic, **record)
            print(json.dumps(record, separators=(",", ":")), flush=True)
    except (LookupError, KafkaException) as e:
        print("dpclust_consume.py: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
