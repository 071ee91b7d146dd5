package kgmem.neo4j;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

/**
 * Starts an embedded Neo4j Community DBMS with Bolt on a loopback address and the open Graph
 * Data Science procedures loaded, proves GDS answers, prints one READY line and blocks until the
 * process is told to stop (SIGTERM runs the shutdown hook, which closes the store cleanly).
 *
 * <p>Flags: --home DIR (store, logs), --bolt HOST:PORT, --plugins DIR (GDS jars only),
 * --auth none|password (the password itself comes from KGMEM_LAUNCHER_PASSWORD so it never shows
 * in the process list), --pagecache SIZE, --browser-port N (0 = off).
 *
 * <p>Machine-readable lines on stdout: "KGMEM_NEO4J_READY bolt://host:port neo4j=V gds=V" or
 * "KGMEM_NEO4J_ERROR reason: message". The Python side (kgmem/local_server/launcher.py) reads them.
 */
public final class Launcher {

  private Launcher() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = parse(args);
    Path home = Path.of(opts.getOrDefault("home", ".kgmem/neo4j")).toAbsolutePath();
    String bolt = opts.getOrDefault("bolt", "127.0.0.1:7687");
    String plugins = opts.get("plugins");
    boolean auth = !"none".equals(opts.getOrDefault("auth", "none"));
    String password = System.getenv("KGMEM_LAUNCHER_PASSWORD");
    int browserPort = Integer.parseInt(opts.getOrDefault("browser-port", "0"));
    if (!bolt.startsWith("127.") && !bolt.startsWith("localhost")) {
      fail("config", "Bolt must listen on a loopback address, got " + bolt);
    }
    if (auth && (password == null || password.length() < 8)) {
      fail("config", "auth is on but KGMEM_LAUNCHER_PASSWORD is missing or shorter than 8 characters");
    }
    Files.createDirectories(home);

    Map<String, String> cfg = new HashMap<>();
    cfg.put("server.bolt.enabled", "true");
    cfg.put("server.bolt.listen_address", bolt);
    cfg.put("server.bolt.advertised_address", bolt);
    cfg.put("server.bolt.tls_level", "DISABLED");
    if (plugins != null) {
      cfg.put("server.directories.plugins", Path.of(plugins).toAbsolutePath().toString());
    }
    cfg.put("dbms.security.procedures.unrestricted", "gds.*");
    cfg.put("dbms.security.auth_enabled", Boolean.toString(auth));
    cfg.put("server.memory.pagecache.size", opts.getOrDefault("pagecache", "256m"));
    cfg.put("server.logs.debug.enabled", "false");
    cfg.put("dbms.usage_report.enabled", "false");
    cfg.put("db.tx_log.rotation.retention_policy", "1 files");
    cfg.put("db.transaction.timeout", "120s");

    DatabaseManagementService dbms;
    try {
      // Raw key=value settings through a conf file: the same code runs on 5.26 and calver.
      Path conf = home.resolve("neo4j.conf");
      StringBuilder text = new StringBuilder();
      cfg.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
      Files.writeString(conf, text.toString(), StandardCharsets.UTF_8);
      dbms = new DatabaseManagementServiceBuilder(home).loadPropertiesFromFile(conf).build();
    } catch (RuntimeException e) {
      if (causedBy(e, BindException.class)) {
        fail("port_in_use", "Bolt address " + bolt + " is already in use");
      }
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      dbms.shutdown();
      stopped.countDown();
    }, "kgmem-neo4j-shutdown"));

    if (auth) {
      setPassword(dbms.database("system"), password);
    }
    GraphDatabaseService db = dbms.database("neo4j");
    String neo4jVersion = (String) db.executeTransactionally(
        "CALL dbms.components() YIELD versions RETURN versions[0] AS v", Map.of(),
        r -> r.next().get("v"));
    String gdsVersion;
    try {
      gdsVersion = (String) db.executeTransactionally(
          "RETURN gds.version() AS v", Map.of(), r -> r.next().get("v"));
      smokeTestGds(db);
    } catch (RuntimeException e) {
      fail("gds", "GDS procedures are not callable: " + e.getMessage());
      return;
    }
    if (browserPort > 0) {
      serveBrowser(browserPort, bolt, auth);
    }
    String uri = "bolt://" + bolt;
    String line = "KGMEM_NEO4J_READY " + uri + " neo4j=" + neo4jVersion + " gds=" + gdsVersion;
    Files.writeString(home.resolve("ready"), line + "\n", StandardCharsets.UTF_8);
    System.out.println(line);
    System.out.flush();
    stopped.await();
  }

  /** Sets the neo4j user's password; on a restart the same password is already set. */
  private static void setPassword(GraphDatabaseService system, String password) {
    try {
      system.executeTransactionally(
          "ALTER USER neo4j SET PASSWORD $p CHANGE NOT REQUIRED", Map.of("p", password));
    } catch (RuntimeException e) {
      // "Old password and new password cannot be the same": the store already has it.
      if (!String.valueOf(e.getMessage()).contains("cannot be the same")) {
        throw e;
      }
    }
  }

  /** Projects a two-node graph and runs PageRank so a broken GDS fails here, not in a query. */
  private static void smokeTestGds(GraphDatabaseService db) {
    String name = "__kgmem_smoke_" + ProcessHandle.current().pid();
    db.executeTransactionally(
        "CALL gds.graph.project.cypher($g, "
            + "'UNWIND [0, 1] AS id RETURN id', "
            + "'RETURN 0 AS source, 1 AS target') YIELD graphName "
            + "CALL gds.pageRank.stream(graphName) YIELD nodeId, score "
            + "WITH graphName, count(*) AS n "
            + "CALL gds.graph.drop(graphName) YIELD graphName AS dropped "
            + "RETURN n",
        Map.of("g", name));
  }

  /** Serves the Neo4j Browser's static files (from the neo4j-browser jar) on loopback. */
  private static void serveBrowser(int port, String bolt, boolean auth) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    ClassLoader loader = Launcher.class.getClassLoader();
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/") || path.isEmpty()) {
        path = "/index.html";
      }
      if (path.contains("..")) {
        exchange.sendResponseHeaders(400, -1);
        exchange.close();
        return;
      }
      try (InputStream in = loader.getResourceAsStream("browser" + path)) {
        if (in == null) {
          exchange.sendResponseHeaders(404, -1);
        } else {
          byte[] body = in.readAllBytes();
          exchange.getResponseHeaders().add("Content-Type", contentType(path));
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        }
      } finally {
        exchange.close();
      }
    });
    server.start();
    System.out.println("KGMEM_BROWSER http://127.0.0.1:" + port
        + "/?dbms=bolt://" + bolt + (auth ? "" : "&preselectAuthMethod=NO_AUTH"));
  }

  private static String contentType(String path) {
    if (path.endsWith(".html")) return "text/html; charset=utf-8";
    if (path.endsWith(".js")) return "application/javascript";
    if (path.endsWith(".css")) return "text/css";
    if (path.endsWith(".json")) return "application/json";
    if (path.endsWith(".svg")) return "image/svg+xml";
    if (path.endsWith(".png")) return "image/png";
    if (path.endsWith(".woff2")) return "font/woff2";
    if (path.endsWith(".woff")) return "font/woff";
    if (path.endsWith(".ico")) return "image/x-icon";
    return "application/octet-stream";
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t) || String.valueOf(t.getMessage()).contains("Address already in use")) {
        return true;
      }
    }
    return false;
  }

  private static void fail(String reason, String message) {
    System.out.println("KGMEM_NEO4J_ERROR " + reason + ": " + message);
    System.out.flush();
    Runtime.getRuntime().halt(2);
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || i + 1 >= args.length) {
        fail("usage", "expected --key value pairs, got " + a);
      }
      out.put(a.substring(2), args[++i]);
    }
    return out;
  }
}
