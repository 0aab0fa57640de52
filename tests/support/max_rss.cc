// max_rss OUT COMMAND [ARG...]: runs COMMAND with this process's standard
// streams, writes its peak resident set size in KiB (getrusage's ru_maxrss
// of the child) to the file OUT, and exits with COMMAND's status (127 when
// it cannot be run, 128 + N when killed by signal N). For tests that bound
// a command's memory on machines without /usr/bin/time.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: max_rss OUT COMMAND [ARG...]\n");
    return 2;
  }
  const pid_t child = fork();
  if (child == 0) {
    execvp(argv[2], argv + 2);
    std::perror(argv[2]);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (child < 0 || wait4(child, &status, 0, &usage) != child) {
    std::perror("max_rss");
    return 127;
  }
  FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr || std::fprintf(out, "%ld\n", usage.ru_maxrss) < 0 || std::fclose(out) != 0) {
    std::perror(argv[1]);
    return 127;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
