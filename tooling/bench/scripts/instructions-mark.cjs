// Preload for request-instructions.sh: each SIGUSR2 calls uv_getrusage, where callgrind dumps the main thread.
process.on('SIGUSR2', () => {
  process.cpuUsage();
});
