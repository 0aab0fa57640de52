// Which Canal file a PATH holds, by content and name: meta.dat (one JSON
// object with clientDatas, or any file named meta.dat, which may be empty
// or truncated), meta.log (cursor lines, or a file named meta.log /
// meta-*.log, plain or gzip'd) and a ZooKeeper cursor node (a bare
// LogPosition, alone or in zkCli's output, or a file at
// .../destinations/<destination>/<clientId>/cursor). A ZooKeeper tree is a
// directory (zk_tree.h), told by its layout, never by a file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "byte_span.h"

namespace qjt::canal {

enum class FileKind { kMetaDat, kMetaLog, kZkCursor, kZkTree };

// nullopt when the file is not Canal's.
std::optional<FileKind> detect_file_kind(const std::string& path, ByteSpan bytes);

// "--format" names: canal-meta-dat, canal-meta-log, canal-zk-cursor,
// canal-zk-tree; also the groups of the driver's claims.
std::string_view format_name(FileKind kind);
std::optional<FileKind> parse_format(const std::string& name);
// Every format name, in the order of FileKind.
std::vector<std::string_view> format_names();

}  // namespace qjt::canal
