package compat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// gormEvent maps the scenario's events table, created beforehand by the
// scenario DDL (with families on widesql). Its tags spell the DDL's types,
// so AutoMigrate has nothing to change.
type gormEvent struct {
	Tenant string          `gorm:"primaryKey;type:text"`
	Seq    int32           `gorm:"primaryKey;autoIncrement:false"`
	Kind   *string         `gorm:"type:varchar(20)"`
	Amount *pgtype.Numeric `gorm:"type:numeric(12,2)"`
	At     *time.Time      `gorm:"type:timestamp"`
	Note   *string         `gorm:"type:text"`
	Score  *float64        `gorm:"type:double precision"`
	Flag   *bool
}

func (gormEvent) TableName() string { return "events" }

// Customer and Order are created by AutoMigrate itself: bigserial keys,
// timestamptz, a has-many association and an index, as a GORM application
// has them.
type Customer struct {
	ID        uint `gorm:"primaryKey"`
	Name      string
	Email     string `gorm:"size:100;index"`
	CreatedAt time.Time
	Orders    []Order
}

type Order struct {
	ID         uint `gorm:"primaryKey"`
	CustomerID uint
	Item       string
	Qty        int
}

// sqlLog is a GORM logger that records every statement GORM runs.
type sqlLog struct {
	mu  sync.Mutex
	sql []string
}

func (l *sqlLog) LogMode(logger.LogLevel) logger.Interface { return l }
func (l *sqlLog) Info(context.Context, string, ...any)     {}
func (l *sqlLog) Warn(context.Context, string, ...any)     {}
func (l *sqlLog) Error(context.Context, string, ...any)    {}
func (l *sqlLog) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	sql, _ := fc()
	l.mu.Lock()
	l.sql = append(l.sql, sql)
	l.mu.Unlock()
}

// take returns and clears the statements recorded so far.
func (l *sqlLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.sql
	l.sql = nil
	return s
}

// ddlOnly keeps the schema-changing statements.
func ddlOnly(stmts []string) []string {
	var out []string
	for _, s := range stmts {
		word, _, _ := strings.Cut(strings.TrimSpace(s), " ")
		switch strings.ToUpper(word) {
		case "CREATE", "ALTER", "DROP", "COMMENT":
			out = append(out, s)
		}
	}
	return out
}

// runGorm runs the scenario through GORM with its postgres driver (pgx
// underneath): AutoMigrate against the pre-created events table and twice
// for models it creates (the second run must send no ALTER), the migrator's
// Has* and ColumnTypes reflection, CRUD, transactions and Preload.
func runGorm(ctx context.Context, ep endpoint, s scenario, tr *transcript) {
	log := &sqlLog{}
	// widesql refuses FOREIGN KEY constraints (0A000, docs/STATUS.md), so
	// the models migrate without them, as GORM's own option allows; the
	// has-many association and Preload do not need the constraint.
	db, err := gorm.Open(postgres.Open(ep.url()), &gorm.Config{Logger: log,
		DisableForeignKeyConstraintWhenMigrating: true})
	tr.printf("## connect")
	if err != nil {
		tr.printf("error %s", errorText(err))
		return
	}
	if sqlDB, err := db.DB(); err == nil {
		defer sqlDB.Close()
	}
	tr.printf("ok")
	db = db.WithContext(ctx)
	// printDDL prints the schema changes GORM sent since the last call
	// and returns how many there were.
	printDDL := func() int {
		stmts := ddlOnly(log.take())
		for _, stmt := range stmts {
			tr.printf("ddl %s", stmt)
		}
		return len(stmts)
	}

	tr.run("create", func() error { return db.Exec(ddlFor(ep, s)).Error })
	tr.run("load", func() error {
		for _, r := range s.Rows {
			args, err := scenarioArgs(r)
			if err != nil {
				return err
			}
			if err := db.Exec(insertSQL, args...).Error; err != nil {
				return err
			}
		}
		var n int64
		err := db.Model(&gormEvent{}).Count(&n).Error
		tr.printf("count %d", n)
		return err
	})
	log.take()
	// The table exists with exactly the model's columns: AutoMigrate must
	// change nothing.
	tr.run("automigrate events", func() error {
		err := db.AutoMigrate(&gormEvent{})
		if n := printDDL(); err == nil && n > 0 {
			err = fmt.Errorf("AutoMigrate of an up-to-date table sent %d DDL statements", n)
		}
		return err
	})
	tr.run("automigrate customers first", func() error {
		err := db.AutoMigrate(&Customer{}, &Order{})
		printDDL()
		return err
	})
	tr.run("automigrate customers second", func() error {
		err := db.AutoMigrate(&Customer{}, &Order{})
		if n := printDDL(); err == nil && n > 0 {
			err = fmt.Errorf("the second AutoMigrate sent %d DDL statements", n)
		}
		return err
	})
	tr.run("migrator", func() error {
		m := db.Migrator()
		tr.printf("HasTable events %v", m.HasTable(&gormEvent{}))
		tr.printf("HasTable nosuch %v", m.HasTable("nosuch"))
		tr.printf("HasColumn events note %v", m.HasColumn(&gormEvent{}, "Note"))
		tr.printf("HasColumn events nosuch %v", m.HasColumn(&gormEvent{}, "nosuch"))
		tr.printf("HasIndex customers email %v", m.HasIndex(&Customer{}, "Email"))
		cols, err := m.ColumnTypes(&gormEvent{})
		if err != nil {
			return err
		}
		for _, c := range cols {
			line := []string{"column", c.Name(), c.DatabaseTypeName()}
			if n, ok := c.Nullable(); ok {
				line = append(line, fmt.Sprintf("nullable=%v", n))
			}
			if n, ok := c.Length(); ok {
				line = append(line, fmt.Sprintf("length=%d", n))
			}
			if p, sc, ok := c.DecimalSize(); ok {
				line = append(line, fmt.Sprintf("decimal=%d,%d", p, sc))
			}
			if pk, ok := c.PrimaryKey(); ok {
				line = append(line, fmt.Sprintf("pk=%v", pk))
			}
			if d, ok := c.DefaultValue(); ok {
				line = append(line, "default="+d)
			}
			tr.printf("%s", strings.Join(line, " "))
		}
		log.take()
		return nil
	})
	tr.run("by_key", func() error {
		var e gormEvent
		err := db.First(&e, "tenant = ? AND seq = ?", "acme", 2).Error
		tr.printf("event %s %d %s %s %s %s %s %s", e.Tenant, e.Seq, render(e.Kind), render(e.Amount),
			render(e.At), render(e.Note), render(e.Score), render(e.Flag))
		return err
	})
	tr.run("by_range", func() error {
		var es []gormEvent
		err := db.Where("tenant = ? AND seq >= ?", "acme", 2).Order("seq DESC").Find(&es).Error
		for _, e := range es {
			tr.printf("event %s %d %s", e.Tenant, e.Seq, render(e.Kind))
		}
		return err
	})
	tr.run("create customers", func() error {
		cs := []Customer{
			{Name: "ann", Email: "ann@example.com", CreatedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
				Orders: []Order{{Item: "apple", Qty: 2}, {Item: "pear", Qty: 1}}},
			{Name: "bob", Email: "bob@example.com", CreatedAt: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
				Orders: []Order{{Item: "plum", Qty: 5}}},
		}
		err := db.Create(&cs).Error
		for _, c := range cs {
			tr.printf("customer id %d orders %d", c.ID, len(c.Orders))
		}
		return err
	})
	tr.run("update", func() error {
		res := db.Model(&gormEvent{}).Where("tenant = ? AND seq = ?", "acme", 1).
			Updates(map[string]any{"note": "updated", "score": gorm.Expr("score + 1")})
		tr.printf("rows affected %d", res.RowsAffected)
		if res.Error != nil {
			return res.Error
		}
		res = db.Model(&Customer{}).Where("name = ?", "bob").Update("email", "robert@example.com")
		tr.printf("rows affected %d", res.RowsAffected)
		return res.Error
	})
	tr.run("delete", func() error {
		res := db.Where("tenant = ?", "globex").Delete(&gormEvent{})
		tr.printf("rows affected %d", res.RowsAffected)
		return res.Error
	})
	tr.run("transaction", func() error {
		err := db.Transaction(func(tx *gorm.DB) error {
			return tx.Create(&Order{CustomerID: 1, Item: "fig", Qty: 3}).Error
		})
		if err != nil {
			return err
		}
		errRollback := errors.New("roll back")
		err = db.Transaction(func(tx *gorm.DB) error {
			if err := tx.Where("customer_id = ?", 1).Delete(&Order{}).Error; err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			return fmt.Errorf("rolled-back transaction returned %v", err)
		}
		var n int64
		err = db.Model(&Order{}).Count(&n).Error
		tr.printf("orders %d", n)
		return err
	})
	tr.run("preload", func() error {
		var cs []Customer
		err := db.Preload("Orders", func(db *gorm.DB) *gorm.DB { return db.Order("id") }).Order("id").Find(&cs).Error
		for _, c := range cs {
			var items []string
			for _, o := range c.Orders {
				items = append(items, fmt.Sprintf("%d:%s:%d", o.ID, o.Item, o.Qty))
			}
			tr.printf("customer %d %s %s %s orders %s", c.ID, c.Name, c.Email, c.CreatedAt.UTC().Format(time.RFC3339),
				strings.Join(items, ","))
		}
		return err
	})
	tr.run("final", func() error {
		var es []gormEvent
		err := db.Order("tenant, seq").Find(&es).Error
		for _, e := range es {
			tr.printf("event %s %d %s %s", e.Tenant, e.Seq, render(e.Note), render(e.Score))
		}
		return err
	})
}
