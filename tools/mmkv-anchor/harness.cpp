// The MMKV side of tools/mmkv-compat and tools/mmkv-bench: Tencent MMKV's C++ core driven through
// its public API only (MMKV.h). Built against one MMKV tag by tools/mmkv-anchor/build; HAVE_AES256
// is defined there for tags whose mmkvWithID takes an aes256 flag (2.3 and later).
//
//   harness spec KIND                       the key set of KIND as lines: set<TAB>KEY<TAB>TYPE<TAB>TEXT,
//                                           del<TAB>KEY, expire<TAB>KEY<TAB>TYPE<TAB>TEXT<TAB>SECONDS
//   harness expect KIND                     the key set's final state as dump prints it
//   harness write DIR ID KIND [--crypt-key K] [--aes256]
//   harness dump DIR ID [--crypt-key K] [--aes256]
//   harness bench COUNT [--only int64-get|string-get|int64-set|string-set] [--multi-process]
//
// KIND: plain, aes128, aes256 or expire (the same keys; expire adds one key that lives 10 years and
// one that lives 1 second). TYPE is a `kvstore set --type` name; TEXT is the value in kvstore's
// text form (strings as they are, bytes as hex, strings as a JSON array).
//
// dump prints {"key":K,"raw_hex":H,"size":S} per live key, sorted by key. MMKV has no getter for a
// value's stored bytes, so the harness reads each key with the getter its name's prefix names
// (i32., u32., i64., u64., bool., f32., f64., str., bytes., strs.) and encodes what it read as
// docs/MMKV-FORMAT.md §2.4 says; S is getValueSize(key, false), the stored payload's length, so a
// payload that decodes to the right value from other bytes still shows.
//
// bench prints one JSON object with kvstore bench --json's field names. --only runs the fill its
// phase needs, then the phase, untimed, inside measured_phase (for valgrind --toggle-collect).
// --multi-process opens the store with MMKV_MULTI_PROCESS (a flock on the .crc file and a change
// check per operation), the counterpart of kvstore's default shared mode; without it,
// MMKV_SINGLE_PROCESS, the counterpart of kvstore --single-process.
#include "MMKV.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

struct Item {
    const char *op;  // set, del, expire
    std::string key, type, text;
    unsigned seconds = 0;
};

std::string repeat_pattern(size_t length) {
    std::string s;
    for (size_t i = 0; s.size() < length; i++) s += "long-value-" + std::to_string(i) + ";";
    s.resize(length);
    return s;
}

std::string hex_pattern(size_t length) {
    static const char *digits = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < length; i++) {
        unsigned byte = (i * 37 + 11) & 0xff;
        s += digits[byte >> 4];
        s += digits[byte & 15];
    }
    return s;
}

std::vector<Item> spec(const std::string &kind) {
    std::vector<Item> items = {
        {"set", "i32.zero", "int32", "0"},
        {"set", "i32.max", "int32", "2147483647"},
        {"set", "i32.neg", "int32", "-1000001"},
        {"set", "i32.min", "int32", "-2147483648"},
        {"set", "u32.max", "uint32", "4294967295"},
        {"set", "u32.small", "uint32", "300"},
        {"set", "i64.max", "int64", "9223372036854775807"},
        {"set", "i64.min", "int64", "-9223372036854775808"},
        {"set", "i64.one", "int64", "1"},
        {"set", "u64.max", "uint64", "18446744073709551615"},
        {"set", "u64.big", "uint64", "1311768467463790320"},
        {"set", "bool.true", "bool", "true"},
        {"set", "bool.false", "bool", "false"},
        {"set", "f32.pi", "float", "3.14159274"},
        {"set", "f32.neg", "float", "-0.75"},
        {"set", "f64.e", "double", "2.718281828459045"},
        {"set", "f64.tiny", "double", "5e-324"},
        {"set", "f64.big", "double", "-1.7976931348623157e+308"},
        {"set", "str.ascii", "string", "hello, coffer"},
        {"set", "str.empty", "string", ""},
        {"set", "str.unicode-value", "string", "Grüße, 世界 🔑"},
        {"set", "str.ключ-键-🔑", "string", "unicode key"},
        {"set", "str.long", "string", repeat_pattern(10000)},
        {"set", "bytes.short", "bytes", "00ff7f80"},
        {"set", "bytes.empty", "bytes", ""},
        {"set", "bytes.long", "bytes", hex_pattern(4096)},
        {"set", "strs.three", "strings", "[\"a\",\"\",\"ü\"]"},
        {"set", "i64.overwritten", "int64", "1"},
        {"set", "str.removed", "string", "gone"},
        {"set", "i64.overwritten", "int64", "-5"},
        {"del", "str.removed", "", ""},
    };
    if (kind == "expire") {
        items.insert(items.begin(), {"expire", "i32.exp-long", "int32", "42", 315360000});
        items.push_back({"expire", "str.exp-short", "string", "short-lived", 1});
    }
    return items;
}

// --- §2.4 encoding of a value (what dump prints and expect predicts) ---

void varint(std::string &out, uint64_t v) {
    while (v >= 0x80) {
        out += char((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += char(v);
}

template <typename T> std::string little_endian(T value) {
    std::string out(sizeof(T), '\0');
    std::memcpy(&out[0], &value, sizeof(T));  // x86-64 and arm64 are little-endian
    return out;
}

std::string delimited(const std::string &bytes) {
    std::string out;
    varint(out, bytes.size());
    return out + bytes;
}

std::string from_hex(const std::string &hex) {
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) out += char(std::stoul(hex.substr(i, 2), nullptr, 16));
    return out;
}

std::string to_hex(const std::string &bytes) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::vector<std::string> json_strings(const std::string &text) {  // the spec's simple arrays only
    std::vector<std::string> out;
    size_t i = text.find('"');
    while (i != std::string::npos) {
        size_t end = text.find('"', i + 1);
        out.push_back(text.substr(i + 1, end - i - 1));
        i = text.find('"', end + 1);
    }
    return out;
}

std::string encode_strings(const std::vector<std::string> &values) {
    std::string body;
    for (auto &v : values) body += delimited(v);
    return delimited(body);
}

std::string encode(const std::string &type, const std::string &text) {
    std::string out;
    if (type == "int32") varint(out, uint64_t(int64_t(std::stol(text))));
    else if (type == "uint32" || type == "uint64") varint(out, std::stoull(text));
    else if (type == "int64") varint(out, uint64_t(std::stoll(text)));
    else if (type == "bool") varint(out, text == "true");
    else if (type == "float") out = little_endian(std::strtof(text.c_str(), nullptr));
    else if (type == "double") out = little_endian(std::strtod(text.c_str(), nullptr));
    else if (type == "string") out = delimited(text);
    else if (type == "bytes") out = delimited(from_hex(text));
    else if (type == "strings") out = encode_strings(json_strings(text));
    return out;
}

std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += char(c);
        else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += char(c);
    }
    return out + "\"";
}

void print_line(const std::string &key, const std::string &raw, size_t size) {
    std::printf("{\"key\":%s,\"raw_hex\":\"%s\",\"size\":%zu}\n", json_string(key).c_str(), to_hex(raw).c_str(), size);
}

// --- MMKV ---

struct Options {
    std::string crypt_key;
    bool aes256 = false;
    bool multi_process = false;
};

MMKV *open_store(std::string dir, const std::string &id, const Options &options) {
    std::string crypt_key = options.crypt_key;  // mmkvWithID takes a non-const pointer
    std::string *key = crypt_key.empty() ? nullptr : &crypt_key;
    MMKVMode mode = options.multi_process ? MMKV_MULTI_PROCESS : MMKV_SINGLE_PROCESS;
#ifdef HAVE_AES256
    MMKV *kv = MMKV::mmkvWithID(id, mode, key, &dir, 0, options.aes256);
#else
    if (options.aes256) {
        std::fprintf(stderr, "harness: this MMKV has no AES-256\n");
        std::exit(3);
    }
    MMKV *kv = MMKV::mmkvWithID(id, mode, key, &dir);
#endif
    if (!kv) {
        std::fprintf(stderr, "harness: mmkvWithID failed\n");
        std::exit(2);
    }
    return kv;
}

bool set_value(MMKV *kv, const Item &item, uint32_t seconds) {
    const std::string &t = item.type, &x = item.text, &k = item.key;
    if (t == "int32") return kv->set(int32_t(std::stol(x)), k, seconds);
    if (t == "uint32") return kv->set(uint32_t(std::stoul(x)), k, seconds);
    if (t == "int64") return kv->set(int64_t(std::stoll(x)), k, seconds);
    if (t == "uint64") return kv->set(uint64_t(std::stoull(x)), k, seconds);
    if (t == "bool") return kv->set(x == "true", k, seconds);
    if (t == "float") return kv->set(std::strtof(x.c_str(), nullptr), k, seconds);
    if (t == "double") return kv->set(std::strtod(x.c_str(), nullptr), k, seconds);
    if (t == "string") return kv->set(x, k, seconds);
    if (t == "bytes") {
        std::string raw = from_hex(x);
        return kv->set(mmkv::MMBuffer((void *) raw.data(), raw.size(), mmkv::MMBufferNoCopy), k, seconds);
    }
    if (t == "strings") return kv->set(json_strings(x), k, seconds);
    return false;
}

int write(MMKV *kv, const std::string &kind) {
    if (kind == "expire" && !kv->enableAutoKeyExpire(0)) return 1;
    for (auto &item : spec(kind)) {
        if (std::strcmp(item.op, "del") == 0) kv->removeValueForKey(item.key);
        else if (!set_value(kv, item, item.seconds)) {
            std::fprintf(stderr, "harness: set %s failed\n", item.key.c_str());
            return 1;
        }
    }
    kv->sync();
    kv->close();
    return 0;
}

// Reads `key` with the getter its prefix names; false when MMKV reports it absent or undecodable.
bool read_value(MMKV *kv, const std::string &key, std::string &raw) {
    std::string prefix = key.substr(0, key.find('.'));
    bool has = false;
    raw.clear();
    if (prefix == "i32") varint(raw, uint64_t(int64_t(kv->getInt32(key, 0, &has))));
    else if (prefix == "u32") varint(raw, kv->getUInt32(key, 0, &has));
    else if (prefix == "i64") varint(raw, uint64_t(kv->getInt64(key, 0, &has)));
    else if (prefix == "u64") varint(raw, kv->getUInt64(key, 0, &has));
    else if (prefix == "bool") varint(raw, kv->getBool(key, false, &has));
    else if (prefix == "f32") raw = little_endian(kv->getFloat(key, 0, &has));
    else if (prefix == "f64") raw = little_endian(kv->getDouble(key, 0, &has));
    else if (prefix == "str") {
        std::string value;
        has = kv->getString(key, value);
        raw = delimited(value);
    } else if (prefix == "bytes") {
        mmkv::MMBuffer value;
        has = kv->getBytes(key, value);
        raw = delimited(std::string((const char *) value.getPtr(), value.length()));
    } else if (prefix == "strs") {
        std::vector<std::string> value;
        has = kv->getVector(key, value);
        raw = encode_strings(value);
    }
    return has;
}

int dump(MMKV *kv) {
    auto keys = kv->allKeys(true);
    std::sort(keys.begin(), keys.end());
    int status = 0;
    for (auto &key : keys) {
        std::string raw;
        if (!read_value(kv, key, raw)) {
            std::fprintf(stderr, "harness: cannot read %s\n", key.c_str());
            status = 1;
            continue;
        }
        print_line(key, raw, kv->getValueSize(key, false));
    }
    kv->close();
    return status;
}

int expect(const std::string &kind) {
    std::vector<std::pair<std::string, std::string>> state;
    for (auto &item : spec(kind)) {
        auto found = std::find_if(state.begin(), state.end(), [&](auto &p) { return p.first == item.key; });
        if (found != state.end()) state.erase(found);
        if (std::strcmp(item.op, "del") != 0 && item.seconds != 1) state.push_back({item.key, encode(item.type, item.text)});
    }
    std::sort(state.begin(), state.end());
    for (auto &[key, raw] : state) print_line(key, raw, raw.size());
    return 0;
}

// --- bench ---

const std::string string_value = "coffer-bench-value-0123456789abc";  // 32 bytes, as StoreWorkload
volatile int64_t sink;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    if (v.empty()) return 0;
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

template <typename F> double timed(size_t count, F operation) {  // median ns/op over chunks of 1,000
    std::vector<double> per_op;
    for (size_t i = 0; i < count;) {
        size_t end = std::min(i + 1000, count);
        auto start = std::chrono::steady_clock::now();
        for (size_t j = i; j < end; j++) operation(j);
        std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
        per_op.push_back(elapsed.count() / double(end - i));
        i = end;
    }
    return median(per_op);
}

void check(bool ok, const char *step) {
    if (!ok) {
        std::fprintf(stderr, "harness: the %s step read back wrong values\n", step);
        std::exit(1);
    }
}

void run_steps(MMKV *kv, const std::string &phase, const std::vector<std::string> &keys) {
    int64_t sum = 0;
    std::string value;
    if (phase == "int64-set") for (size_t i = 0; i < keys.size(); i++) kv->set(int64_t(i), keys[i]);
    else if (phase == "int64-get") for (size_t i = 0; i < keys.size(); i++) sum += kv->getInt64(keys[i], -1);
    else if (phase == "string-set") for (size_t i = 0; i < keys.size(); i++) kv->set(string_value, keys[i]);
    else if (phase == "string-get")
        for (size_t i = 0; i < keys.size(); i++) sum += kv->getString(keys[i], value) ? int64_t(value.size()) : 0;
    sink = sum;
}

// The measured step of --only, in a function of its own for valgrind --toggle-collect.
__attribute__((noinline)) void measured_phase(MMKV *kv, const std::string &phase, const std::vector<std::string> &keys) {
    run_steps(kv, phase, keys);
}

int bench(size_t count, const std::string &only, const Options &options) {
    char dir_template[] = "/tmp/mmkv-harness-bench-XXXXXX";
    std::string dir = mkdtemp(dir_template);
    MMKV::initializeMMKV(dir, MMKVLogNone);
    MMKV *kv = open_store(dir, "bench", options);
    std::vector<std::string> int_keys, string_keys;
    for (size_t i = 0; i < count; i++) {
        int_keys.push_back("int-" + std::to_string(i));
        string_keys.push_back("str-" + std::to_string(i));
    }
    if (!only.empty()) {
        bool strings = only.rfind("string", 0) == 0, get = only.find("get") != std::string::npos;
        const auto &keys = strings ? string_keys : int_keys;
        if (get) run_steps(kv, strings ? "string-set" : "int64-set", keys);
        measured_phase(kv, only, keys);
        check(only != "int64-get" || sink == int64_t(count) * int64_t(count - 1) / 2, "int64 get");
        check(only != "string-get" || sink == 32 * int64_t(count), "string get");
        kv->close();
        std::system(("rm -rf '" + dir + "'").c_str());
        return 0;
    }
    int64_t sum = 0;
    double int64_set = timed(count, [&](size_t i) { kv->set(int64_t(i), int_keys[i]); });
    double int64_get = timed(count, [&](size_t i) { sum += kv->getInt64(int_keys[i], -1); });
    check(sum == int64_t(count) * int64_t(count - 1) / 2, "int64 get");
    double int64_overwrite = timed(count, [&](size_t i) { kv->set(int64_t(i) * 3, int_keys[i]); });
    double string_set = timed(count, [&](size_t i) { kv->set(string_value, string_keys[i]); });
    size_t characters = 0;
    std::string value;
    double string_get = timed(count, [&](size_t i) { characters += kv->getString(string_keys[i], value) ? value.size() : 0; });
    check(characters == 32 * count, "string get");
    size_t file_bytes = kv->totalSize();
    kv->close();

    // MMKV loads lazily (on the first access after mmkvWithID), so the reopen is timed up to count().
    std::vector<double> reopen_ms, reopen_cpu_ms;
    for (int r = 0; r < 5; r++) {
        timespec cpu0, cpu1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
        auto start = std::chrono::steady_clock::now();
        MMKV *reopened = open_store(dir, "bench", options);
        size_t n = reopened->count();
        std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
        reopen_ms.push_back(elapsed.count());
        reopen_cpu_ms.push_back((cpu1.tv_sec - cpu0.tv_sec) * 1e3 + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e6);
        check(n == 2 * count && reopened->getInt64(int_keys[count - 1], -1) == int64_t(count - 1) * 3, "reopen");
        reopened->close();
    }
    std::printf("{\"int64Set\":%.1f,\"int64Get\":%.1f,\"int64Overwrite\":%.1f,\"stringSet\":%.1f,\"stringGet\":%.1f,"
                "\"reopenMs\":%.1f,\"reopenCpuMs\":%.1f,\"dataFileBytes\":%zu}\n",
                int64_set, int64_get, int64_overwrite, string_set, string_get, median(reopen_ms), median(reopen_cpu_ms), file_bytes);
    std::system(("rm -rf '" + dir + "'").c_str());
    return 0;
}

int usage() {
    std::fprintf(stderr, "usage: harness spec|expect KIND | write DIR ID KIND [--crypt-key K] [--aes256] |\n"
                         "       dump DIR ID [--crypt-key K] [--aes256] | bench COUNT [--only PHASE] [--multi-process]\n");
    return 64;
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    Options options;
    std::string only;
    for (size_t i = 0; i < args.size();) {
        if (args[i] == "--aes256") options.aes256 = true;
        else if (args[i] == "--multi-process") options.multi_process = true;
        else if (args[i] == "--crypt-key" && i + 1 < args.size()) options.crypt_key = args[i + 1], args.erase(args.begin() + i);
        else if (args[i] == "--only" && i + 1 < args.size()) only = args[i + 1], args.erase(args.begin() + i);
        else { i++; continue; }
        args.erase(args.begin() + i);
    }
    const std::vector<std::string> kinds = {"plain", "aes128", "aes256", "expire"};
    const std::vector<std::string> phases = {"int64-set", "int64-get", "string-set", "string-get"};
    auto is_kind = [&](const std::string &k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    if (args.size() == 2 && args[0] == "spec" && is_kind(args[1])) {
        for (auto &item : spec(args[1])) {
            std::printf("%s\t%s", item.op, item.key.c_str());
            if (std::strcmp(item.op, "del") != 0) std::printf("\t%s\t%s", item.type.c_str(), item.text.c_str());
            if (item.seconds) std::printf("\t%u", item.seconds);
            std::printf("\n");
        }
        return 0;
    }
    if (args.size() == 2 && args[0] == "expect" && is_kind(args[1])) return expect(args[1]);
    if (args.size() >= 2 && (args[0] == "write" || args[0] == "dump")) MMKV::initializeMMKV(args[1], MMKVLogNone);
    if (args.size() == 4 && args[0] == "write" && is_kind(args[3])) return write(open_store(args[1], args[2], options), args[3]);
    if (args.size() == 3 && args[0] == "dump") return dump(open_store(args[1], args[2], options));
    if (args.size() == 2 && args[0] == "bench" && std::atol(args[1].c_str()) > 0 &&
        (only.empty() || std::find(phases.begin(), phases.end(), only) != phases.end()))
        return bench(size_t(std::atol(args[1].c_str())), only, options);
    return usage();
}
