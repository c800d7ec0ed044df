-- CH-benCHmark's three tables beside the TPC-C nine (Cole et al., "The mixed workload
-- CH-benCHmark", DBTest 2011). Keys come after the data (loader.js).

CREATE TABLE region (
  r_regionkey int NOT NULL,
  r_name char(55) NOT NULL,
  r_comment char(152) NOT NULL
);

CREATE TABLE nation (
  n_nationkey int NOT NULL,
  n_name char(25) NOT NULL,
  n_regionkey int NOT NULL,
  n_comment char(152) NOT NULL
);

CREATE TABLE supplier (
  su_suppkey int NOT NULL,
  su_name char(25) NOT NULL,
  su_address varchar(40) NOT NULL,
  su_nationkey int NOT NULL,
  su_phone char(15) NOT NULL,
  su_acctbal numeric(12,2) NOT NULL,
  su_comment char(101) NOT NULL
);
