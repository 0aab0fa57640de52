#include "write_guard.h"

namespace qjt::cli {

void add_write_guard_options(CLI::App* command, WriteGuardOptions* options, std::string_view force_help) {
  command->add_option("--backup-to", options->backup_root,
                      "Where backups go (default: <dir>.qjt-backup beside the queue directory)");
  command->add_flag("--no-backup", options->no_backup, "Keep no backup of the replaced files");
  command
      ->add_option("--keep-backups", options->keep_backups,
                   "Keep the newest N backups of each queue or file, removing older ones once the new state is "
                   "installed and verified (default: keep all)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  command->add_flag("--force", options->force, std::string(force_help));
}

}  // namespace qjt::cli
