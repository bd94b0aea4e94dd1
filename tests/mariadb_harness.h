/*
 * tests/mariadb_harness.h - a real MariaDB server for the tests that need
 * one: Debian's mariadbd on a free loopback port with a temporary data
 * directory, a user with a password (handed to the tokio command through
 * the environment, never argv), and SQLite samples copied into it.
 *
 * Header-only (static functions) because every test is its own program
 * built from one source file.  Use it from a cmocka group: setup calls
 * mariadb_start() (skip when it returns MARIADB_ABSENT), teardown calls
 * mariadb_stop(), which also runs at exit and when the test program dies
 * of a signal, so no server outlives a failing test.
 *
 * The server runs with grant tables (no --skip-grant-tables): a command
 * that sent no or the wrong password fails here as it would at a site.
 */
#ifndef TOKIO_TESTS_MARIADB_HARNESS_H
#define TOKIO_TESTS_MARIADB_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <mysql.h>
#include <sqlite3.h>

#define MARIADB_OK      0
#define MARIADB_ABSENT  1       /* no mariadbd here: skip */
#define MARIADB_USER     "tokio_test"
#define MARIADB_PASSWORD "t0kio-s3cret"

struct mariadb_server {
    char *dir;              /* temporary folder: data/, socket, logs */
    char sock[200];
    unsigned port;
    pid_t pid;              /* 0: not running */
    char port_env[64];      /* "PREFIXPORT=NNNN" etc., for tokio_test_run */
};

static struct mariadb_server *mariadb_current;

__attribute__((unused)) static const char *
mariadb_find(const char *name)
{
    static char path[256];
    static const char *const dirs[] = { "/usr/sbin", "/usr/bin",
                                        "/usr/local/sbin", "/usr/local/bin" };

    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
        if (access(path, X_OK) == 0)
            return path;
    }
    return NULL;
}

/* Show the end of a server log, for a failure's diagnosis. */
__attribute__((unused)) static void
mariadb_show_log(struct mariadb_server *s, const char *name)
{
    char path[512], *text;
    size_t len;

    snprintf(path, sizeof(path), "%s/%s", s->dir, name);
    if ((text = tokio_test_read_file(path, &len)) != NULL) {
        print_message("--- %s (end)\n%s\n", name,
                      len > 3000 ? text + len - 3000 : text);
        free(text);
    }
}

/* A loopback port nobody listens on right now. */
__attribute__((unused)) static unsigned
mariadb_free_port(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    unsigned port = 0;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

/* Run argv (no shell) with output to `log`; exit status or -1. */
__attribute__((unused)) static int
mariadb_run(char *const argv[], const char *log)
{
    pid_t pid = fork();
    int st;

    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);

        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Connect as the server's root over its socket (set-up only). */
__attribute__((unused)) static MYSQL *
mariadb_root(struct mariadb_server *s, const char *db)
{
    MYSQL *m = mysql_init(NULL);
    unsigned timeout = 5;

    if (m == NULL)
        return NULL;
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    if (mysql_real_connect(m, NULL, "root", "", db, 0, s->sock, 0) == NULL) {
        mysql_close(m);
        return NULL;
    }
    return m;
}

__attribute__((unused)) static void
mariadb_stop(struct mariadb_server *s)
{
    if (s == NULL)
        return;
    if (s->pid > 0) {
        int st;

        kill(s->pid, SIGTERM);
        for (int i = 0; i < 300; i++) {     /* up to 30 s, then SIGKILL */
            if (waitpid(s->pid, &st, WNOHANG) != 0)
                break;
            if (i == 299) {
                kill(s->pid, SIGKILL);
                waitpid(s->pid, &st, 0);
            }
            usleep(100000);
        }
        s->pid = 0;
    }
    if (s->dir) {
        tokio_test_rmtree(s->dir);
        free(s->dir);
        s->dir = NULL;
    }
    if (mariadb_current == s)
        mariadb_current = NULL;
}

__attribute__((unused)) static void
mariadb_stop_current(void)
{
    mariadb_stop(mariadb_current);
}

__attribute__((unused)) static void
mariadb_on_signal(int sig)
{
    /* a crashing test must not leave the server running */
    if (mariadb_current && mariadb_current->pid > 0)
        kill(mariadb_current->pid, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Has the server died (e.g. killed by a fault test)?  Reaps it. */
__attribute__((unused)) static int
mariadb_dead(struct mariadb_server *s)
{
    int st;

    if (s->pid > 0 && waitpid(s->pid, &st, WNOHANG) == s->pid)
        s->pid = 0;
    return s->pid == 0;
}

__attribute__((unused)) static int
mariadb_exec(MYSQL *m, const char *sql)
{
    if (mysql_query(m, sql) != 0) {
        print_message("mariadb: %s: %s\n", sql, mysql_error(m));
        return -1;
    }
    return 0;
}

/*
 * Start a server: install a data directory, start mariadbd on a free
 * loopback port, wait until it answers, and create MARIADB_USER with
 * MARIADB_PASSWORD allowed everything on every database.
 */
__attribute__((unused)) static int
mariadb_start(struct mariadb_server *s)
{
    char mysqld[256] = "", install[256] = "";
    char data[300], log[300], a_datadir[330], a_user[64], a_sock[230],
        a_port[32], a_pid[330], a_err[330], a_install[330], a_auth[80];
    const char *user = getuid() == 0 ? "root" : getenv("USER");
    MYSQL *m = NULL;

    memset(s, 0, sizeof(*s));
    /* mariadb_find() answers in one static buffer: copy each answer */
    if (mariadb_find("mariadbd"))
        snprintf(mysqld, sizeof(mysqld), "%s", mariadb_find("mariadbd"));
    if (mariadb_find("mariadb-install-db"))
        snprintf(install, sizeof(install), "%s",
                 mariadb_find("mariadb-install-db"));
    if (*mysqld == '\0' || *install == '\0') {
        print_message("skipped: no mariadbd (install Debian's "
                      "mariadb-server)\n");
        return MARIADB_ABSENT;
    }
    if (user == NULL)
        user = "nobody";
    s->dir = tokio_test_mkdtemp();
    mariadb_current = s;
    atexit(mariadb_stop_current);
    signal(SIGABRT, mariadb_on_signal);
    signal(SIGSEGV, mariadb_on_signal);
    signal(SIGTERM, mariadb_on_signal);
    signal(SIGINT, mariadb_on_signal);

    snprintf(data, sizeof(data), "%s/data", s->dir);
    snprintf(log, sizeof(log), "%s/install.log", s->dir);
    snprintf(s->sock, sizeof(s->sock), "%s/s.sock", s->dir);
    snprintf(a_datadir, sizeof(a_datadir), "--datadir=%s", data);
    snprintf(a_user, sizeof(a_user), "--user=%s", user);
    snprintf(a_auth, sizeof(a_auth), "--auth-root-authentication-method=%s",
             "normal");
    {
        char *argv[] = { install, "--no-defaults", a_datadir, a_user,
                         a_auth, "--skip-test-db", NULL };

        if (mariadb_run(argv, log) != 0) {
            print_message("mariadb-install-db failed\n");
            mariadb_show_log(s, "install.log");
            return -1;
        }
    }
    s->port = mariadb_free_port();
    snprintf(a_sock, sizeof(a_sock), "--socket=%s", s->sock);
    snprintf(a_port, sizeof(a_port), "--port=%u", s->port);
    snprintf(a_pid, sizeof(a_pid), "--pid-file=%s/mariadbd.pid", s->dir);
    snprintf(a_err, sizeof(a_err), "--log-error=%s/error.log", s->dir);
    snprintf(a_install, sizeof(a_install), "%s/server.log", s->dir);
    if ((s->pid = fork()) == 0) {
        /* through /usr/bin/env: a valgrind run traces the test's children
         * but skips programs in /usr/bin, so the server runs at full speed */
        char *argv[] = { "/usr/bin/env", mysqld, "--no-defaults",
                         a_datadir, a_user,
                         a_sock, a_port, "--bind-address=127.0.0.1", a_pid,
                         a_err, "--skip-name-resolve", "--skip-log-bin",
                         "--innodb-buffer-pool-size=64M",
                         "--innodb-log-file-size=16M",
                         "--innodb-flush-log-at-trx-commit=0", NULL };
        int fd = open(a_install, O_WRONLY | O_CREAT | O_APPEND, 0600);

        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        /* dies with the test program, however that ends */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execv(argv[0], argv);
        _exit(127);
    }
    if (s->pid < 0) {
        s->pid = 0;
        return -1;
    }
    for (int i = 0; i < 600 && m == NULL; i++) {    /* up to 60 s */
        if (mariadb_dead(s)) {
            print_message("mariadbd exited\n");
            mariadb_show_log(s, "error.log");
            mariadb_show_log(s, "server.log");
            return -1;
        }
        if ((m = mariadb_root(s, NULL)) == NULL)
            usleep(100000);
    }
    if (m == NULL) {
        print_message("mariadbd did not answer\n");
        mariadb_show_log(s, "error.log");
        return -1;
    }
    int rc = 0;
    static const char *const setup[] = {
        "CREATE USER '" MARIADB_USER "'@'127.0.0.1' IDENTIFIED BY '"
        MARIADB_PASSWORD "'",
        "CREATE USER '" MARIADB_USER "'@'localhost' IDENTIFIED BY '"
        MARIADB_PASSWORD "'",
        "GRANT ALL ON *.* TO '" MARIADB_USER "'@'127.0.0.1'",
        "GRANT ALL ON *.* TO '" MARIADB_USER "'@'localhost'",
    };
    for (size_t i = 0; rc == 0 && i < sizeof(setup) / sizeof(*setup); i++)
        rc = mariadb_exec(m, setup[i]);
    mysql_close(m);
    snprintf(s->port_env, sizeof(s->port_env), "%u", s->port);
    return rc;
}

/* The MySQL type a column of SQLite values gets. */
__attribute__((unused)) static const char *
mariadb_type(sqlite3 *db, const char *table, const char *col, int pk)
{
    char sql[512];
    sqlite3_stmt *st;
    int has_real = 0, has_text = 0, all_stamps = 1, n = 0;

    snprintf(sql, sizeof(sql), "SELECT typeof(\"%s\"), \"%s\" FROM \"%s\"",
             col, col, table);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return "TEXT";
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);

        if (strcmp(t, "real") == 0)
            has_real = 1;
        if (strcmp(t, "text") == 0) {
            const char *v = (const char *)sqlite3_column_text(st, 1);

            has_text = 1;
            if (strlen(v) != 19 || v[4] != '-' || v[10] != ' ' || v[13] != ':')
                all_stamps = 0;
        }
        n++;
    }
    sqlite3_finalize(st);
    if (has_text)
        return all_stamps && n ? "DATETIME" : pk ? "VARCHAR(191)" : "TEXT";
    if (has_real)
        return "DOUBLE";
    return "BIGINT";
}

/* Copy every table of the SQLite file `path` into database `name`,
 * with LMT's secondary indexes (TS_ID, TIMESTAMP) where they apply. */
__attribute__((unused)) static int
mariadb_load_sqlite(struct mariadb_server *s, const char *name,
                    const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *tables = NULL;
    MYSQL *m = mariadb_root(s, NULL);
    char sql[8192];
    int rc = 0;

    if (m == NULL || sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL))
        return -1;
    snprintf(sql, sizeof(sql), "CREATE DATABASE `%s`", name);
    if (mariadb_exec(m, sql) != 0 || mysql_select_db(m, name) != 0)
        rc = -1;
    if (rc == 0)
        sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE "
                           "type='table' ORDER BY rowid", -1, &tables, NULL);
    while (rc == 0 && tables && sqlite3_step(tables) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(tables, 0);
        char table[128], cols[64][64], pk[1024] = "", *p = sql;
        int ncols = 0, has_ts = 0, has_stamp = 0;
        sqlite3_stmt *info, *rows;

        snprintf(table, sizeof(table), "%s", t);
        snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", table);
        sqlite3_prepare_v2(db, sql, -1, &info, NULL);
        p += sprintf(p, "CREATE TABLE `%s` (", table);
        while (sqlite3_step(info) == SQLITE_ROW && ncols < 64) {
            const char *c = (const char *)sqlite3_column_text(info, 1);
            int ispk = sqlite3_column_int(info, 5);

            snprintf(cols[ncols], sizeof(cols[0]), "%s", c);
            p += sprintf(p, "%s`%s` %s", ncols ? ", " : "", c,
                         mariadb_type(db, table, c, ispk));
            if (ispk)
                snprintf(pk + strlen(pk), sizeof(pk) - strlen(pk), "%s`%s`",
                         *pk ? ", " : "", c);
            has_ts |= strcmp(c, "TS_ID") == 0;
            has_stamp |= strcmp(c, "TIMESTAMP") == 0;
            ncols++;
        }
        sqlite3_finalize(info);
        if (*pk)
            p += sprintf(p, ", PRIMARY KEY(%s)", pk);
        if (has_ts && strcmp(table, "TIMESTAMP_INFO") != 0)
            p += sprintf(p, ", INDEX(`TS_ID`)");
        if (has_stamp)
            p += sprintf(p, ", INDEX(`TIMESTAMP`)");
        sprintf(p, ") ENGINE=InnoDB");
        if (mariadb_exec(m, sql) != 0) {
            rc = -1;
            break;
        }
        /* rows, through a prepared INSERT in one transaction */
        MYSQL_STMT *ins = mysql_stmt_init(m);
        MYSQL_BIND b[64];
        long long iv[64];
        double dv[64];
        char marks[256] = "";

        for (int c = 0; c < ncols; c++)
            strcat(marks, c ? ",?" : "?");
        snprintf(sql, sizeof(sql), "INSERT INTO `%s` VALUES (%s)", table,
                 marks);
        if (mysql_stmt_prepare(ins, sql, strlen(sql)) != 0) {
            print_message("mariadb: %s: %s\n", sql, mysql_stmt_error(ins));
            mysql_stmt_close(ins);
            rc = -1;
            break;
        }
        mariadb_exec(m, "START TRANSACTION");
        snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\" ORDER BY rowid",
                 table);
        sqlite3_prepare_v2(db, sql, -1, &rows, NULL);
        while (rc == 0 && sqlite3_step(rows) == SQLITE_ROW) {
            memset(b, 0, sizeof(b));
            for (int c = 0; c < ncols; c++) {
                switch (sqlite3_column_type(rows, c)) {
                case SQLITE_INTEGER:
                    iv[c] = sqlite3_column_int64(rows, c);
                    b[c].buffer_type = MYSQL_TYPE_LONGLONG;
                    b[c].buffer = &iv[c];
                    break;
                case SQLITE_FLOAT:
                    dv[c] = sqlite3_column_double(rows, c);
                    b[c].buffer_type = MYSQL_TYPE_DOUBLE;
                    b[c].buffer = &dv[c];
                    break;
                case SQLITE_NULL:
                    b[c].buffer_type = MYSQL_TYPE_NULL;
                    break;
                default:
                    b[c].buffer_type = MYSQL_TYPE_STRING;
                    b[c].buffer = (void *)sqlite3_column_text(rows, c);
                    b[c].buffer_length =
                        (unsigned long)sqlite3_column_bytes(rows, c);
                    break;
                }
            }
            if (mysql_stmt_bind_param(ins, b) != 0 ||
                mysql_stmt_execute(ins) != 0) {
                print_message("mariadb: insert into %s: %s\n", table,
                              mysql_stmt_error(ins));
                rc = -1;
            }
        }
        sqlite3_finalize(rows);
        mysql_stmt_close(ins);
        if (rc == 0)
            rc = mariadb_exec(m, "COMMIT");
        (void)cols;
    }
    sqlite3_finalize(tables);
    sqlite3_close(db);
    mysql_close(m);
    return rc;
}

#endif
