"""The test .proto files of Confluent's schema-registry (protobuf-serializer/src/test/proto
and protobuf-converter/src/test/proto, commit 794611bd), as the Java tests' classes use them."""

from __future__ import annotations

__all__ = ["PROTOS"]

PROTOS: dict[str, str] = {
    "NestedTestProto.proto": """\
syntax = "proto3";
import "google/protobuf/timestamp.proto";
package io.confluent.kafka.serializers.protobuf.test;
option java_package = "io.confluent.kafka.serializers.protobuf.test";
option java_outer_classname = "NestedTestProto";
option java_multiple_files = false;
message UserId {
    oneof user_id {
        string kafka_user_id = 1;
        int32 other_user_id = 2;
        MessageId another_id = 3;
    }
}
message MessageId {
    string id = 1;
}
enum Status {
    ACTIVE = 0;
    INACTIVE = 1;
}
message ComplexType {
    oneof some_val {
        string one_id = 1;
        int32 other_id = 2;
    }
    bool is_active = 3;
}
/*
 * Complex message using nested protos and repeated fields
 */
message NestedMessage {
    UserId user_id = 1;
    bool is_active = 2;
    repeated string experiments_active = 3;
    google.protobuf.Timestamp updated_at = 4;
    Status status = 5;
    ComplexType complex_type = 6;
    map<string, string> map_type = 7;
    InnerMessage inner = 8;
    message InnerMessage {
        string id = 1 [json_name="id"];
        repeated int32 ids = 2 [packed=true];
    }
    enum InnerEnum {
        option allow_alias = true;
        ZERO = 0;
        ALSO_ZERO = 0;
    }
    reserved 14, 15, 9 to 11;
    reserved "foo", "bar";
}
""",
    "EnumUnion.proto": """\
syntax = "proto3";
import "NestedTestProto.proto";
package io.confluent.kafka.serializers.protobuf.test;
option java_package = "io.confluent.kafka.serializers.protobuf.test";
option java_outer_classname = "EnumUnionOuter";
option java_multiple_files = false;
message EnumUnion {
    oneof some_val {
        string one_id = 1;
        int32 other_id = 2;
        Status some_status = 3;
    }
    Status status = 4;
}
""",
    "TestProto.proto": """\
syntax = "proto3";
package io.confluent.kafka.serializers.protobuf.test;
option java_package = "io.confluent.kafka.serializers.protobuf.test";
option java_outer_classname = "TestMessageProtos";
import "google/protobuf/descriptor.proto";
message TestMessage {
    string test_string = 1;
    bool test_bool = 2;
    bytes test_bytes = 3;
    double test_double = 4;
    float test_float = 5;
    fixed32 test_fixed32 = 6;
    fixed64 test_fixed64 = 7;
    int32 test_int32 = 8;
    int64 test_int64 = 9;
    sfixed32 test_sfixed32 = 10;
    sfixed64 test_sfixed64 = 11;
    sint32 test_sint32 = 12;
    sint64 test_sint64 = 13;
    uint32 test_uint32 = 14;
    uint64 test_uint64 = 15;
}
message TestMessage2 {
    string test_string = 1;
    bool test_bool = 2;
    bytes test_bytes = 3;
    double test_double = 4;
    float test_float = 5;
    fixed32 test_fixed32 = 6;
    fixed64 test_fixed64 = 7;
    int32 test_int32 = 8;
    int64 test_int64 = 9;
    sfixed32 test_sfixed32 = 10;
    sfixed64 test_sfixed64 = 11;
    sint32 test_sint32 = 12;
    sint64 test_sint64 = 13;
    uint32 test_uint32 = 14;
    uint64 test_uint64 = 15;
    TestMessage test_message = 16;
}
""",
    "DateValue.proto": """\
syntax = "proto3";
import "google/type/date.proto";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message DateValue {
  google.type.Date value = 1;
}
""",
    "DecimalValue.proto": """\
syntax = "proto3";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message DecimalValue {
  option (confluent.message_meta).doc = "message";
  confluent.type.Decimal value = 1 [(confluent.field_meta) = { params: [
    { key: "precision", value: "8" },
    { key: "scale", value: "3" }
  ]}];
}
""",
    "Int8Value.proto": """\
syntax = "proto3";
import "confluent/meta.proto";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message Int8Value {
  int32 value = 1 [(confluent.field_meta) = { params: [
    { key: "connect.type", value: "int8" }
  ]}];
}
""",
    "Int16Value.proto": """\
syntax = "proto3";
import "confluent/meta.proto";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message Int16Value {
  int32 value = 1 [(confluent.field_meta) = { params: [
    { key: "connect.type", value: "int16" }
  ]}];
}
""",
    "SInt32Value.proto": """\
syntax = "proto3";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message SInt32Value {
    sint32 value = 1;
}
""",
    "SInt64Value.proto": """\
syntax = "proto3";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message SInt64Value {
    sint64 value = 1;
}
""",
    "UInt32Value.proto": """\
syntax = "proto3";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message UInt32Value {
    uint32 value = 1;
}
""",
    "TimeOfDayValue.proto": """\
syntax = "proto3";
import "google/type/timeofday.proto";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message TimeOfDayValue {
  google.type.TimeOfDay value = 1;
}
""",
    "TimestampValue.proto": """\
syntax = "proto3";
import "google/protobuf/timestamp.proto";
option java_package = "io.confluent.kafka.serializers.protobuf.test";
message TimestampValue {
  google.protobuf.Timestamp value = 1;
}
""",
    "key.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "Key";
import "google/protobuf/descriptor.proto";
message KeyMessage {
    int32 key = 1;
}
""",
    "keyvalue.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "KeyValue";
import "google/protobuf/descriptor.proto";
message KeyValueMessage {
    int32 key = 1;
    string value = 2;
}
""",
    "keyvalueoptional.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "KeyValueOptional";
message KeyValueOptionalMessage {
    int32 key = 1;
    optional string value = 2;
}
""",
    "keyvalueproto2.proto": """\
syntax = "proto2";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "KeyValueProto2";
message KeyValueMessage2 {
    optional int32 key = 1;
    optional string value = 2;
}
""",
    "keyvaluewrapper.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "KeyValueWrapper";
import "google/protobuf/descriptor.proto";
import "google/protobuf/wrappers.proto";
message KeyValueWrapperMessage {
    int32 key = 1;
    google.protobuf.StringValue wrappedValue = 2;
    google.protobuf.UInt32Value wrappedValue2 = 3;
}
""",
    "mapreferences.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "MapReferences";
message MapReferencesMessage {
    repeated AttributeFieldEntry map1 = 1;
    repeated AttributeFieldEntry map2 = 2;
    AttributeFieldEntry notAMap1 = 3;
    AttributeFieldEntry notAMap2 = 4;
}
message AttributeFieldEntry {
    string key = 1;
    string value = 2;
}
""",
    "nestedfield.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "NestedKeyValue";
import "google/protobuf/descriptor.proto";
message NestedKeyValueMessage {
  NestedAttributeFieldEntry wrapper_field = 1;
  double inner_field = 2;
}
message NestedAttributeFieldEntry {
  double nested_field = 1;
}
""",
    "recursivekeyvalue.proto": """\
syntax = "proto3";
option java_package = "io.confluent.connect.protobuf.test";
option java_outer_classname = "RecursiveKeyValue";
import "google/protobuf/descriptor.proto";
message RecursiveKeyValueMessage {
    int32 key = 1;
    string value = 2;
    RecursiveKeyValueMessage key_value = 10;
}
""",
}
