package agentd.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Throw-away Neo4j 5 servers for agentd's tests, in one JVM so its start (class loading,
 * JIT) is paid once per test run. Each server runs in-process with Bolt on a free
 * loopback port, authentication off (the driver's user and password are accepted as
 * they are), its files in a temporary folder deleted when it goes.
 *
 * <pre>
 * Neo4jLauncher                  one server; prints "NEO4J_URI=bolt://127.0.0.1:PORT" when it
 *                                answers and stops when standard input closes.
 * Neo4jLauncher serve DIR PID    a control port on loopback, written to DIR/port when ready;
 *                                exits (stopping every server, deleting DIR) when process
 *                                PID is gone. Each control connection owns one
 *                                server and sends lines:
 *                                  start  -> "uri bolt://..." (a new, empty server)
 *                                  stop   -> "stopped"        (shut down, its data kept)
 *                                  resume -> "uri bolt://..." (the same data, the same port)
 *                                the connection's end stops its server and deletes its files.
 * </pre>
 */
public final class Neo4jLauncher {
  private Neo4jLauncher() {}

  /** One server: its home folder and port stay across stop and resume. */
  static final class Server {
    final Path home;
    int port;
    DatabaseManagementService dbms;

    Server() throws IOException { this.home = Files.createTempDirectory("agentd-neo4j-"); }

    String start() {
      long t0 = System.nanoTime();
      dbms = new DatabaseManagementServiceBuilder(home)
          .setConfig(BoltConnector.enabled, true)
          .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
          .setConfig(GraphDatabaseSettings.auth_enabled, false)
          // Tests hold little, and the machine is shared: small caches, no preallocation.
          .setConfig(GraphDatabaseSettings.pagecache_memory, 32L * 1024 * 1024)
          .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
          .setConfig(GraphDatabaseSettings.preallocate_store_files, false)
          .setConfig(GraphDatabaseSettings.keep_logical_logs, "false")
          .setConfig(GraphDatabaseSettings.udc_enabled, false)
          .setConfig(BoltConnector.thread_pool_max_size, 50)
          .setConfig(BoltConnector.connection_keep_alive, Duration.ofSeconds(30))
          // A test's "stop" is a server going away, not a graceful drain: do not wait 10 s for it.
          .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofMillis(500))
          .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
          .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofMillis(500))
          .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofMillis(500))
          .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofMillis(500))
          .build();
      GraphDatabaseAPI system = (GraphDatabaseAPI) dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
      port = system.getDependencyResolver().resolveDependency(ConnectorPortRegister.class).getLocalAddress(ConnectorType.BOLT).getPort();
      // The default database must be up too before anyone is told the server answers.
      dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
      System.err.printf("neo4j-launcher: server on %d up in %d ms%n", port, (System.nanoTime() - t0) / 1_000_000);
      return "bolt://127.0.0.1:" + port;
    }

    synchronized void stop() {
      if (dbms != null) { dbms.shutdown(); dbms = null; }
    }

    synchronized void close() {
      stop();
      deleteTree(home);
    }
  }

  static void deleteTree(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) { /* a temporary folder: the OS cleans what is left */ }
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 3 && args[0].equals("serve")) serve(Path.of(args[1]), Long.parseLong(args[2]));
    else single();
  }

  private static void single() throws Exception {
    Server server = new Server();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "neo4j-stop"));
    System.out.println("NEO4J_URI=" + server.start());
    System.out.flush();
    while (System.in.read() != -1) { /* any input is ignored: only its end counts */ }
    System.exit(0);
  }

  private static void serve(Path dir, long parentPid) throws Exception {
    ServerSocket control = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    // The run's folder goes with the launcher: a later run never finds a stale port in it.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "run-folder"));
    // Exit when the test run is over: its process is gone.
    Thread watch = new Thread(() -> {
      while (ProcessHandle.of(parentPid).map(ProcessHandle::isAlive).orElse(false)) {
        try { Thread.sleep(500); } catch (InterruptedException e) { return; }
      }
      System.exit(0);
    }, "parent-watch");
    watch.setDaemon(true);
    watch.start();
    Path tmp = dir.resolve("port.tmp");
    Files.writeString(tmp, Integer.toString(control.getLocalPort()), StandardCharsets.UTF_8);
    Files.move(tmp, dir.resolve("port"), StandardCopyOption.ATOMIC_MOVE);
    System.err.println("neo4j-launcher: control port " + control.getLocalPort());
    while (true) {
      Socket s = control.accept();
      Thread t = new Thread(() -> handle(s), "control-" + s.getPort());
      t.setDaemon(true);
      t.start();
    }
  }

  private static void handle(Socket s) {
    Server server = null;
    try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
         PrintWriter out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8)) {
      server = new Server();
      Server current = server;
      Runtime.getRuntime().addShutdownHook(new Thread(current::close, "neo4j-stop"));
      for (String line; (line = in.readLine()) != null; ) {
        try {
          switch (line.trim()) {
            case "start", "resume" -> out.println("uri " + server.start());
            case "stop" -> { server.stop(); out.println("stopped"); }
            default -> out.println("error unknown command \"" + line.trim() + "\" (start, stop, resume)");
          }
        } catch (RuntimeException e) {
          e.printStackTrace();
          out.println("error " + String.valueOf(e.getMessage()).replace('\n', ' '));
        }
      }
    } catch (IOException e) {
      // The test process went away: its server goes too.
    } finally {
      if (server != null) server.close();
    }
  }
}
