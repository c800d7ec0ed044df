-- pgbench's TPC-B-like tables exactly as `pgbench -i` creates them (PostgreSQL 18), in its order.
-- Filled in by workloads/tpcb/init.js: {{unlogged}} is "unlogged " or "", {{with}} is
-- " with (fillfactor=N)" (pgbench always writes it, also for the default 100), {{aid}} is int,
-- or bigint from scale 20000 on. Sections start with "-- name: <step>".

-- name: create tables
create {{unlogged}}table pgbench_history(tid int,bid int,aid    {{aid}},delta int,mtime timestamp,filler char(22));
create {{unlogged}}table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)){{with}};
create {{unlogged}}table pgbench_accounts(aid    {{aid}} not null,bid int,abalance int,filler char(84)){{with}};
create {{unlogged}}table pgbench_branches(bid int not null,bbalance int,filler char(88)){{with}};

-- name: primary keys
alter table pgbench_branches add primary key (bid);
alter table pgbench_tellers add primary key (tid);
alter table pgbench_accounts add primary key (aid);

-- name: foreign keys
alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references pgbench_branches;
alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) references pgbench_branches;
alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) references pgbench_branches;
alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) references pgbench_tellers;
alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) references pgbench_accounts;
